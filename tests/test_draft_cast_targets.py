"""Drafting castable clauses whose target is no output (promotion_clauses.py): "alpha无法转换为self和
other推导后的数据类型" (the inputs' promoted dtype), a dtype name ("不可转换为FLOAT"), several sources
each on its own. An invented page (PageFacts built by hand, no vendor text): its draft runs
conformant on the oracle backend, and backends with the cast rule planted wrong get findings."""
from __future__ import annotations

import dataclasses

from draft_facts import PRODUCTS, error, param
from toy_promotion import CastsAlphaStrictly, CastsAnything

from conformance.backends.reference import OracleBackend
from conformance.cases.oracle import explain
from conformance.check.judge import Judge
from conformance.draft.clauses import draft_clauses
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.stats import page_stats
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import Drawn
from conformance.spec.loader import read_operator, specs_dir
from conformance.spec.model import SpecSet
from conformance.spec.values import Scalar

A2 = "atlas-a2"


class _AcceptsAnyCast(CastsAnything, OracleBackend):
    """The planted bug on the oracle (a draft has no reference to compute with)."""


class _RefusesCastableAlpha(CastsAlphaStrictly, OracleBackend):
    """The planted bug on the oracle."""


INPUTS = ("FLOAT", "INT32", "BOOL")
ALPHA_ROW = "alpha无法转换为self和other推导后的数据类型。"


def toy_scaled(rows: tuple = (), out: tuple[str, ...] = ("FLOAT",)) -> PageFacts:
    """aclnnToyScaled(self, other, alpha, out): out = self + alpha * other; FLOAT/INT32/BOOL inputs,
    alpha also COMPLEX64, out FLOAT (or ``out``). A null row, a promotion row, the alpha row, then
    ``rows``."""
    proto = (PrototypeParam("self", "aclTensor*", const=True, optional=False),
             PrototypeParam("other", "aclTensor*", const=True, optional=False),
             PrototypeParam("alpha", "aclScalar*", const=True, optional=False),
             PrototypeParam("out", "aclTensor*", const=False, optional=False))
    params = (param("self", 1, dtypes=INPUTS, usage=("shape与other一致。",)),
              param("other", 2, dtypes=INPUTS, usage=("shape与self一致。",)),
              param("alpha", 3, dtypes=(*INPUTS, "COMPLEX64"), formats=(), rank=None, noncontiguous=None),
              param("out", 4, direction="output", dtypes=out, usage=("shape与self一致。",)))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、other、alpha或out是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, "self和other无法做数据类型推导。", 2),
              error("ACLNN_ERR_PARAM_INVALID", 161002, ALPHA_ROW, 3), *rows)
    return PageFacts("aclnnToyScaled", "toy/docs/aclnnToyScaled.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def _casts(d) -> list[tuple[str, list[str], object]]:
    return [(c["id"], c["params"], c["to"]) for c in d.spec["constraints"] if c["kind"] == "castable"]


def test_the_alpha_row_casts_to_the_promoted_dtype(vocab):
    d = draft_spec(toy_scaled(), vocab, "toy: x.md")
    assert _casts(d) == [("TS-CAST", ["alpha"], ["self", "other"])]
    (outcome,) = [o for o in d.draft.outcomes if o.sentence.text.startswith("alpha")]
    assert outcome.checkable


def test_several_sources_are_each_cast(vocab):
    """"self、other的数据类型无法转换为out的数据类型": each on its own (a FLOAT or INT32 input cannot
    be cast to a BOOL out). The boundary draws break self's clause alone; other's, which they
    cannot, is left out (implied) and the row stays checkable through self's."""
    row = error("ACLNN_ERR_PARAM_INVALID", 161002, "self、other的数据类型无法转换为out的数据类型。", 4)
    facts = toy_scaled((row,), out=("FLOAT", "BOOL"))
    drafted = draft_clauses(facts, vocab).clauses
    assert [(c["params"], c["to"]) for c in drafted if c["kind"] == "castable"] == [
        (["alpha"], ["self", "other"]), (["self"], "out"), (["other"], "out")]
    d = draft_spec(facts, vocab, "toy: x.md")
    assert [c[1:] for c in _casts(d)] == [(["alpha"], ["self", "other"]), (["self"], "out")]
    assert "TS-CAST-3" in d.draft.implied
    (each,) = [o for o in d.draft.outcomes if o.sentence.text.startswith("self、other")]
    assert each.checkable
    # every pair of the lists promotes: the promotion row is left out, the other three are checkable
    assert (page_stats(d)["error_rows_checkable"], d.draft.implied) == (3, ["TS-CAST-3", "TS-PROMOTE"])


def test_a_dtype_target_no_listed_dtype_breaks_is_left_out(vocab):
    """"alpha的数据类型不可转换为FLOAT": to a dtype; every listed dtype casts to FLOAT or is disputed
    (COMPLEX64), so no case breaks it: the draft leaves it out (implied), the row not checkable."""
    row = error("ACLNN_ERR_PARAM_INVALID", 161002, "alpha的数据类型不可转换为FLOAT。", 4)
    d = draft_spec(toy_scaled((row,)), vocab, "toy: x.md")
    assert "TS-CAST-2" in d.draft.implied
    assert [o.checkable for o in d.draft.outcomes if o.sentence.text.startswith("alpha的")] == [False]


def _loaded(vocab):
    d = draft_spec(toy_scaled(), vocab, "toy: x.md")
    spec = read_operator(specs_dir() / "aclnnToyScaled.yaml", vocab, text=d.text)
    return spec, SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "draft")


def _status(backend_cls, specs, case) -> list[tuple[str, str]]:
    findings = Judge(backend_cls(specs), specs, A2).judge(Drawn(case, 1, "ordinary")).findings
    return [(f.kind, f.clause) for f in findings if f.kind in ("status", "crash")]


def test_the_draft_runs_conformant_on_the_oracle_and_catches_planted_casts(vocab):
    spec, specs = _loaded(vocab)
    valid = [build_case(spec, vocab, A2, d, FixedChooser(m)) for d in spec.test_dtypes(A2)
             for m in ("min", "max")]
    bad = [c for d in spec.test_dtypes(A2)
           for c in broken_cases(spec, vocab, A2, d, FixedChooser("min"), "TS-CAST")]
    assert valid and bad
    for case in valid:
        assert explain(case, specs).expected == "success"
    for case in bad:
        assert [v.clause for v in explain(case, specs).violations] == ["TS-CAST"]
    for case in (*valid, *bad):
        assert _status(OracleBackend, specs, case) == []
    for case in bad:  # accepting an alpha the promoted dtype cannot take
        assert _status(_AcceptsAnyCast, specs, case) == [("status", "TS-CAST")]
    # refusing an alpha the documents let cast: an INT32 one with FLOAT inputs
    case = dataclasses.replace(valid[0], args={**valid[0].args, "alpha": Scalar(2, "INT32")})
    assert (case.args["self"].dtype, case.args["other"].dtype) == ("FLOAT", "FLOAT")
    assert explain(case, specs).expected == "success"
    assert _status(_RefusesCastableAlpha, specs, case) == [("status", f"{spec.api}:status")]

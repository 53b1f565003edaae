"""An output whose shape the reduction decides (reduced_outputs.py): "当reduction的值为0时，self和
target做broadcast后的shape与out的shape不一致" and "当reduction的值不为0时，out的维度大于0". Invented
pages (PageFacts built by hand, no vendor text); valid and breaking cases are judged by a check of
the kernel's rule written apart from the suite (numpy's broadcasting)."""
from __future__ import annotations

import numpy as np
import pytest
from draft_facts import FLOATS, PRODUCTS, error, param
from test_draft_broadcast_rows import _loaded
from test_draft_rows import _valid_and_broken_alone

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import SeededChooser
from conformance.generate.strategies import breaks_only

INVALID = ("ACLNN_ERR_PARAM_INVALID", 161002)
SHAPE_ROW = "当reduction的值为0时，self和target做broadcast后的shape与out的shape不一致。"
RANK_ROW = "当reduction的值不为0时，out的维度大于0。"


def toy_loss(rows: tuple[str, ...]) -> PageFacts:
    """aclnnToyLoss(self, target, int64_t reduction, out): self and target broadcast; ``rows``."""
    proto = tuple(PrototypeParam(n, c, const=n != "out", optional=False) for n, c in (
        ("self", "aclTensor*"), ("target", "aclTensor*"), ("reduction", "int64_t"), ("out", "aclTensor*")))
    params = (param("self", 1, dtypes=FLOATS), param("target", 2, dtypes=FLOATS),
              param("reduction", 3, dtypes=("INT64",), formats=(), rank=None, noncontiguous=None,
                    usage=("支持0('none')|1('mean')|2('sum')。",)),
              param("out", 4, direction="output", dtypes=FLOATS, rank=(0, 8)))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、target或out是空指针。", 1),
              error(*INVALID, "self和target的shape无法做broadcast。", 2),
              *(error(*INVALID, text, 3 + i) for i, text in enumerate(rows)))
    return PageFacts("aclnnToyLoss", "toy/docs/aclnnToyLoss.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def _kernel_accepts(case) -> bool:  # noqa: ANN001 - a Case
    """The rule the rows state, apart from the suite: out is self and target's broadcast for
    reduction 0, 0-d otherwise."""
    try:
        joint = np.broadcast_shapes(case.args["self"].shape, case.args["target"].shape)
    except ValueError:
        return False
    return case.args["out"].shape == (joint if case.args["reduction"] == 0 else ())


def test_both_rows_fix_out_on_every_reduction(vocab, tmp_path):
    d = draft_spec(toy_loss((SHAPE_ROW, RANK_ROW)), vocab, "toy: x.md")
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True, True]
    exprs = {c["id"]: c for c in d.spec["constraints"] if c["kind"] == "expr"}
    assert sorted(c["all"][0] for c in exprs.values()) == [
        "not (reduction != 0) or out.rank == 0",
        "not (reduction == 0) or out.shape == broadcast(self.shape, target.shape)"]
    generate = d.spec["generate"]
    assert generate["args"]["out"] == "out_reduced_shape"
    assert generate["draws"]["out_reduced_shape"] == {
        "expr": "broadcast(self_shape, target_shape) if reduction == 0 else []"}
    assert list(generate["draws"]).index("out_reduced_shape") > list(generate["draws"]).index("reduction")
    assert not [c for c in d.spec["constraints"] if c["kind"] == "review"]  # (no guess left)
    _valid_and_broken_alone(d, tmp_path)


def test_valid_cases_pass_the_kernels_rule_and_each_break_fails_it(vocab, tmp_path):
    """Drawn like the other tensors (before reduced_outputs.py), out had self's shape on every
    reduction: a mean or a sum the kernel refuses, a false finding."""
    d = draft_spec(toy_loss((SHAPE_ROW, RANK_ROW)), vocab, "toy: x.md")
    spec, specs = _loaded(d, tmp_path)
    product, dtype = spec.products[0], spec.test_dtypes(spec.products[0])[0]
    valid = [build_case(spec, specs.vocabulary, product, dtype, SeededChooser(seed)) for seed in range(200)]
    assert all(_kernel_accepts(case) for case in valid)
    assert {case.args["reduction"] for case in valid} == {0, 1, 2}
    for clause in [c.id for c in spec.constraints if c.kind == "expr"]:
        broken = [k for seed in range(20) for k in broken_cases(spec, specs.vocabulary, product, dtype,
                                                                 SeededChooser(seed), clause)
                  if breaks_only(explain(k, specs), clause)]
        assert broken and not any(_kernel_accepts(k) for k in broken), clause


@pytest.mark.parametrize("rows, drawn", [
    ((SHAPE_ROW,), "broadcast(self_shape, target_shape) if reduction == 0 else self_shape"),
    ((RANK_ROW,), "[] if reduction != 0 else self_shape")])
def test_one_row_keeps_the_old_draw_elsewhere_and_says_so(vocab, tmp_path, rows, drawn):
    d = draft_spec(toy_loss(rows), vocab, "toy: x.md")
    assert d.spec["generate"]["draws"]["out_reduced_shape"] == {"expr": drawn}
    guesses = [c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"]
    assert [q for q in guesses if q.startswith("Drafted guess: the page gives the shape of out for some")]
    _valid_and_broken_alone(d, tmp_path)

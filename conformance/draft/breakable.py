"""Which drafted clauses no case can break alone.

A run tests each clause with cases breaking it and no other (generate/strategies.py); a clause
every such case also breaks another one with (an out's dtype list equal to the self's it is tied to,
an out's rank limit where out has self's shape) cannot be tested, and the run would report the
item unsatisfiable. The hand specs avoid such clauses; a draft finds them by building the cases
the boundary phase builds and asking the oracle, and leaves them out (they add nothing a run can
check: another clause says the same)."""
from __future__ import annotations

import json
from typing import Any

from conformance.cases.oracle import explain
from conformance.errors import ConformanceError
from conformance.generate.build import broken_cases, build_case, can_break
from conformance.generate.choosers import FixedChooser
from conformance.generate.strategies import breaks_only
from conformance.generate.violable import violable
from conformance.spec.loader import VOCABULARY_FILE, read_operator, specs_dir
from conformance.spec.model import OperatorSpec, SpecSet
from conformance.spec.pack_vocabulary import add_pack
from conformance.spec.vocabulary import Vocabulary
from conformance.spec.yaml_lines import LocatedYaml, load_yaml

_CHOOSERS = (FixedChooser("min"), FixedChooser("max"))


def pack_vocabulary(additions: dict[str, Any]) -> Vocabulary:
    """The shipped vocabulary with a pack's additions (what a pack of drafts is linted with)."""
    base = load_yaml(specs_dir() / VOCABULARY_FILE).data
    if not additions:
        return Vocabulary(base)
    schema = json.loads((specs_dir() / "schema" / "vocabulary.schema.json").read_text(encoding="utf-8"))
    return Vocabulary(add_pack(base, LocatedYaml(additions, {}, "drafted vocabulary"), schema))


def unbreakable(text: str, api: str, vocab: Vocabulary) -> tuple[list[str], list[str]]:
    """Clauses of a drafted spec (its YAML ``text``) a run cannot test: (those the drawn valid
    cases break, the draws not honouring them; when there are none, those no boundary case breaks
    without breaking another). ([], []) when the spec does not load (lint says why)."""
    try:
        spec = read_operator(specs_dir() / f"{api}.yaml", vocab, text=text)
    except ConformanceError:
        return [], []
    specs = SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "draft")
    drawn = _valid_breaks(spec, specs)
    if drawn:
        return drawn, []
    return [], [c.id for c in spec.constraints if c.outcome in ("error", "unspecified")
                and can_break(spec, c.id) and not _alone(spec, specs, c.id)]


def _valid_breaks(spec: OperatorSpec, specs: SpecSet) -> list[str]:
    """The clauses the boundary phase's valid cases break (with a code or unspecified)."""
    broken: dict[str, None] = {}
    for product in spec.products:
        for dtype in spec.test_dtypes(product):
            for ch in _CHOOSERS:
                try:
                    case = build_case(spec, specs.vocabulary, product, dtype, ch)
                except Exception:  # noqa: BLE001 - the lint's to report
                    return []
                if case is not None:
                    e = explain(case, specs)
                    broken.update(dict.fromkeys(v.clause for v in (*e.violations, *e.unspecified)))
    return list(broken)


def _alone(spec: OperatorSpec, specs: SpecSet, clause: str) -> bool:
    """Whether, on every product where it can be broken at all (a run tests each clause per
    product, there: generate/violable.py), some boundary case breaks ``clause`` and no other; False
    where there is no such product."""
    lines = [p for p in spec.break_lines(spec.constraint(clause)) if violable(specs, spec, clause, p)]
    return bool(lines) and all(_alone_on(spec, specs, clause, p) for p in lines)


def _alone_on(spec: OperatorSpec, specs: SpecSet, clause: str, product: str) -> bool:
    for dtype in spec.test_dtypes(spec.stand_in(product)):
        for ch in _CHOOSERS:
            try:
                cases = broken_cases(spec, specs.vocabulary, product, dtype, ch, clause)
            except Exception:  # noqa: BLE001 - a draw failing here is the lint's to report
                return True
            if any(breaks_only(explain(case, specs), clause) for case in cases):
                return True
    return False

"""The success side of a conditional clause: a valid case in which each of its disjuncts holds alone.

An ``expr`` clause ``not (COND) or BODY`` (a drafted conditional row, conditions.py; a hand clause
such as ``not present(weightOptional) or ...``) is broken by COND true and BODY false. A kernel
that enforces BODY whatever COND says (it rejects, or computes wrongly, a call with COND false and
BODY false) breaks no clause on such a case: only a valid case with COND false and BODY false
catches it. So the boundary phase gets, for every top-level ``or`` of an error or unspecified
clause, one valid case per disjunct in which that disjunct alone is true (for the conditional
form: the rule's exemption, and the rule obeyed). Nothing says how to draw it, so it is searched:
the clause's ``break`` with each of its steps left out in turn (the step forcing COND true, or the
one forcing BODY false) and no break at all, each at the low and high ends and a few seeded draws.
Where no draw gives such a valid case (other clauses forbid it, or BODY cannot be evaluated when
COND is false: a shape of a tensor that is absent), the exemption says so instead of a case.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.cases.case import Case
from conformance.cases.oracle import arg_metas, explain
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.draw_checks import RUN_ERRORS
from conformance.spec.draws import Chooser
from conformance.spec.expressions import ExprError, Expression
from conformance.spec.model import OperatorSpec, SpecSet

#: Seeded draws per way of building, beside the low and high ends. Where the other clauses leave
#: room the first few draws find a case; 24 found SL1-MEAN-BCAST's second disjunct, 12 did not
#: (the search of every shipped spec on every product: 0.5 to 1.5 s on this machine).
SEEDS = 24


@dataclass(frozen=True)
class Exemption:
    """One disjunct of one ``or`` of a clause, and the valid case where it alone holds (None:
    no draw of the search gave one)."""

    clause: str
    expr: str  # the whole ``or`` expression
    alone: str  # the disjunct that holds alone
    case: Case | None

    def describe(self) -> str:
        return f"{self.clause}: {self.alone!r} alone true in {self.expr!r}"


def conditional(spec: OperatorSpec) -> list[tuple[str, Expression, tuple[Expression, ...]]]:
    """(clause id, expression, its disjuncts) for every top-level ``or`` of an ``expr`` clause
    with a status code or unspecified, in spec order."""
    return [(c.id, e, e.disjuncts()) for c in spec.constraints
            if c.kind == "expr" and c.outcome in ("error", "unspecified") for e in c.exprs
            if e.disjuncts()]


def exemptions(specs: SpecSet, api: str, product: str) -> list[Exemption]:
    """Every disjunct of every conditional clause of ``api``, with its case (or None) on
    ``product``, in any dtype of its items (a condition may name the dtype)."""
    spec = specs.operator(api)
    out = []
    for clause, expr, parts in conditional(spec):
        for i, alone in enumerate(parts):
            case = _search(specs, spec, product, clause, parts, i)
            out.append(Exemption(clause, expr.text, alone.text, case))
    return out


def _search(specs: SpecSet, spec: OperatorSpec, product: str, clause: str,
            parts: tuple[Expression, ...], index: int) -> Case | None:
    steps = spec.program.breaks.get(clause, ())
    ways = [steps[:k] + steps[k + 1:] for k in range(len(steps))] + [()]
    for make in _CHOOSERS:
        for dtype in spec.test_dtypes(product):
            for way in ways:
                try:
                    case = build_case(spec, specs.vocabulary, product, dtype, make(), steps=way)
                except RUN_ERRORS:  # one step of a break without the others may not draw
                    continue
                if case is not None and _alone(specs, case, parts, index):
                    return case
    return None


#: Where the search draws from: the low and high ends, then seeded uniform draws (fresh each build).
_CHOOSERS: tuple[Callable[[], Chooser], ...] = (
    lambda: FixedChooser("min"), lambda: FixedChooser("max"),
    *(lambda seed=seed: SeededChooser(seed) for seed in range(SEEDS)))


def _alone(specs: SpecSet, case: Case, parts: tuple[Expression, ...], index: int) -> bool:
    """Whether ``case`` is valid and only disjunct ``index`` is true on it (every disjunct can be
    evaluated: a BODY reading an absent tensor says nothing)."""
    names: dict[str, Any] = arg_metas(case, specs)
    try:
        truth = [bool(p.evaluate(names)) for p in parts]
    except ExprError:
        return False
    if truth != [i == index for i in range(len(parts))]:
        return False
    return explain(case, specs).expected == "success"

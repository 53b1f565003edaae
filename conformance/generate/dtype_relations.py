"""Dtypes that respect (or break) the ``promotable`` and ``castable`` clauses (spec/promotion.py).

Valid cases draw each dtype group's dtype from its own lists (build.py); ``fitting`` narrows a
group's options to those with which every promotion and cast clause can still hold once the later
groups are drawn, and a cast the documents dispute is avoided. A broken case changes one group's
dtype, within that group's own lists, so that exactly the clause breaks: no promoted dtype, or one
that no cast page lets out's dtype take (``variants``); a promotion over a tensor list's elements
is broken by the list's last element alone in another dtype. Where no such dtype exists in the lists the
clause cannot be broken (the drafter then leaves it out, draft/breakable.py).

Tensors, tensor lists and scalars (aclScalar*, promoted by the TensorScalar table) all take part.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from conformance.cases.tensor import TensorMeta
from conformance.generate import list_dtypes
from conformance.spec.clause_checks import DTYPE_RELATIONS
from conformance.spec.model import Constraint, OperatorSpec
from conformance.spec.predicates import PREDICATES
from conformance.spec.values import Scalar, TensorList, with_dtype

Args = dict[str, Any]
#: The clauses a dtype change can break besides the one it aims at.
_DTYPE_KINDS = ("dtype_in", "same_dtype", *DTYPE_RELATIONS)
#: Most completions tried when looking ahead (beyond it, only the groups drawn so far are checked).
_LOOKAHEAD = 4096
#: Most broken variants per clause (the boundary phase runs them all).
_MOST = 3


def relations(spec: OperatorSpec) -> list[Constraint]:
    return [c for c in spec.constraints if c.kind in DTYPE_RELATIONS]


def group_options(spec: OperatorSpec, product: str, group: list[str]) -> list[str]:
    """The dtypes every member of a dtype group lists on ``product``."""
    return [d for d in spec.dtypes_for(product, group[0])
            if all(d in spec.dtypes_for(product, p) for p in group)]


def fitting(spec: OperatorSpec, product: str, args: Args, group: list[str], options: list[str]
            ) -> list[str]:
    """``options`` for ``group`` with which the relation clauses can all hold, the groups after it
    drawn from their own lists; else those keeping the promotion clauses at least; else all of
    ``options`` (another clause is at fault)."""
    clauses = relations(spec)
    if not clauses:
        return options
    groups = spec.dtype_groups()
    later = [g for g in groups[groups.index(group) + 1:] if g != group] if group in groups else []
    later_options = [group_options(spec, product, g) or [None] for g in later]
    ahead = 1
    for opts in later_options:
        ahead *= len(opts)
    for wanted in (clauses, [c for c in clauses if c.kind == "promotable"]):
        # every clause, else promotion at least (a dtype no cast can satisfy breaks one clause only)
        fits = [d for d in options if _completes(wanted, product, _with(args, group, d), later,
                                                 later_options if ahead <= _LOOKAHEAD else [])]
        if fits:
            return fits
    return options


def _completes(clauses: list[Constraint], product: str, args: Args, later: list[list[str]],
               later_options: list[list[str | None]]) -> bool:
    if not later_options:
        return _holds(clauses, product, args)
    for combo in itertools.product(*later_options):
        trial = args
        for g, d in zip(later, combo):
            trial = _with(trial, g, d) if d is not None else trial
        if _holds(clauses, product, trial):
            return True
    return False


def _holds(clauses: list[Constraint], product: str, args: Args) -> bool:
    """Every clause holds, settled (no disputed cast)."""
    return all(not PREDICATES[c.kind](c, args, product) for c in clauses)


def _with(args: Args, group: list[str], dtype: str) -> Args:
    """``args`` with every member of ``group`` (tensor, tensor list or scalar) in ``dtype``."""
    out = dict(args)
    for p in group:
        value = out.get(p)
        if isinstance(value, Scalar) and isinstance(value.value, complex):  # to a real dtype
            value = Scalar(value.value.real, value.dtype)
        if isinstance(value, (TensorMeta, TensorList, Scalar)):
            out[p] = with_dtype(value, dtype)
    return out


def variants(c: Constraint, args: Args, spec: OperatorSpec, product: str) -> list[Args]:
    """Cases breaking ``c`` alone: one dtype group of its parameters (or castable's ``to`` ones) in
    another dtype its lists admit, such that ``c`` is violated (settled: no disputed cast) and every
    other dtype clause still holds."""
    named = set(c.params) | set(c.options["to_params"] if c.kind == "castable" else ())
    others = [o for o in spec.constraints if o.kind in _DTYPE_KINDS and o.id != c.id]
    out: list[Args] = []
    for trial in _trials(c, args, spec, product, named):
        broken = PREDICATES[c.kind](c, trial, product)
        if broken and not any(type(m) is not str for m in broken) and not any(
                PREDICATES[o.kind](o, trial, product) for o in others):
            out.append(trial)
            if len(out) >= _MOST:
                return out
    return out


def _trials(c: Constraint, args: Args, spec: OperatorSpec, product: str, named: set[str]
            ) -> Iterator[Args]:
    """Each named dtype group in each other dtype its lists admit; for a promotion over a tensor
    list (its elements promote together: "tensors列表中无法做数据类型推导"), the list's last
    element alone in each dtype the list admits."""
    for group in spec.dtype_groups():
        if set(group) & named:
            yield from (_with(args, group, d) for d in group_options(spec, product, group))
    if c.kind == "promotable":
        for p in c.params:
            if list_dtypes.mixable(args.get(p)):
                yield from ({**args, p: list_dtypes.last_as(args[p], d)} for d in spec.dtypes_for(product, p))

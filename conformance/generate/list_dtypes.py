"""Breaking a same_dtype clause within each tensor list (``lists: each``) and no other.

A foreach page says "x和out的数据类型不一致" with one code and "x或out中的Tensor的数据类型不一致" with
another: the first ties x[i] to out[i] (``lists: position``), the second the elements within each
list (``lists: each``). A case breaks the second alone: the LAST element of one named list, and
of every list tied to it by position, moved together to another dtype all of them admit, so
position by position the lists still agree and only the elements within a list differ; one such
case per named list, so a kernel checking the elements of only one list is caught.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from conformance.spec.model import Constraint, OperatorSpec
from conformance.spec.values import TensorList

Args = dict[str, Any]


def within_each(c: Constraint, args: Args, spec: OperatorSpec, product: str) -> list[Args]:
    """One case per list the clause names (with the lists tied to it by position, moved
    together), so a kernel checking only some of the lists fails one of them; none for a list
    of one element, or whose tied lists admit no common other dtype."""
    cases: list[Args] = []
    done: set[str] = set()
    for p in [p for p in c.params if mixable(args.get(p))]:
        if p in done:
            continue
        tied = [q for q in position_tied(spec, [p], args) if mixable(args.get(q))]
        done.update(tied)
        listed = [ds for ds in (spec.dtypes_for(product, q) for q in tied) if ds] or [[]]
        current = {args[q][-1].dtype for q in tied}
        others = [d for d in listed[0] if d not in current and all(d in ds for ds in listed)]
        if others:
            cases.append({**args, **{q: last_as(args[q], others[0]) for q in tied}})
    return cases


def position_tied(spec: OperatorSpec, names: list[str], args: Args) -> list[str]:
    """``names`` and the tensor lists ``lists: position`` same_dtype clauses tie to them
    (transitively), in argument order."""
    tied, grew = set(names), True
    while grew:
        grew = False
        for c in spec.constraints:
            if c.kind == "same_dtype" and c.list_tie == "position" and tied & set(c.params):
                new = {q for q in c.params if isinstance(args.get(q), TensorList) and args[q]} - tied
                tied |= new
                grew = grew or bool(new)
    return [q for q in args if q in tied]


def mixable(value: Any) -> bool:
    """A list whose last element can differ from another one of it."""
    return isinstance(value, TensorList) and len(value) >= 2 and value[-1] is not None


def last_as(value: TensorList, dtype: str) -> TensorList:
    return TensorList((*value[:-1], replace(value[-1], dtype=dtype))) if value[-1] is not None else value

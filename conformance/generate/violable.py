"""On which product lines a clause can be broken at all: a run plans an item for a clause only
there (an item with no case to draw would only say "insufficient evidence"), and a draft keeps a
clause a case breaks alone on each of those lines (draft/breakable.py).

Besides the lines the spec breaks it on (spec.break_lines), two rules read the dtype lists of the
line: a dtype_in clause listing every dtype of the vocabulary (a drafted copy operator) has no
dtype to break it with, and a promotion or cast clause no combination of the listed dtypes
breaks (aclnnEqTensor's "self和other的数据类型无法进行推导" where every pair listed on Atlas A2
promotes, but not on Ascend 950, which lists UINT64 beside INT8) says nothing a case on that line
can test.
"""
from __future__ import annotations

import itertools
from math import prod
from typing import Any

from conformance.cases.tensor import TensorMeta
from conformance.generate import list_dtypes
from conformance.generate.dtype_relations import group_options
from conformance.spec.clause_checks import DTYPE_RELATIONS
from conformance.spec.model import Constraint, OperatorSpec, SpecSet
from conformance.spec.predicates import PREDICATES
from conformance.spec.values import Scalar, TensorList

#: Most dtype combinations tried (beyond it a clause counts as breakable: the run will tell).
_MOST = 4096


def violable(specs: SpecSet, spec: OperatorSpec, clause: str, product: str) -> bool:
    """Whether some case on ``product`` can break ``clause`` (see the module docstring)."""
    c = spec.constraint(clause)
    if product not in spec.break_lines(c):
        return False  # (product_in breaks on the lines marked unsupported, the others elsewhere)
    if c.kind == "dtype_in":
        listed = c.options["per_product"].get(product, [])
        return any(d not in listed for d in specs.vocabulary.dtypes)
    if c.kind in DTYPE_RELATIONS:
        return _relation_breakable(c, spec, product)
    return True


def _relation_breakable(c: Constraint, spec: OperatorSpec, product: str) -> bool:
    """Whether some dtypes the line's lists admit break the promotion or cast clause (settled:
    a disputed cast breaks nothing), whatever else they break."""
    named = set(c.params) | set(c.options["to_params"] if c.kind == "castable" else ())
    groups = [g for g in spec.dtype_groups() if set(g) & named]
    options = [group_options(spec, product, g) for g in groups]
    if not groups or not all(options) or prod(len(o) for o in options) > _MOST:
        return True  # (nothing to enumerate: the run tells)
    for combo in itertools.product(*options):
        args = {p: _standing(spec.params[p].kind, d) for g, d in zip(groups, combo) for p in g}
        for trial in _mixed(c, args, spec, product):
            broken = PREDICATES[c.kind](c, trial, product)
            if broken and all(type(m) is str for m in broken):
                return True
    return False


def _standing(kind: str, dtype: str) -> Any:
    """An argument of ``kind`` in ``dtype`` standing for any (only its dtype is read)."""
    if kind == "tensor_list":
        return TensorList((TensorMeta((1,), dtype),) * 2)
    if kind == "scalar":
        return Scalar(1, dtype)
    return TensorMeta((1,), dtype)


def _mixed(c: Constraint, args: dict[str, Any], spec: OperatorSpec, product: str) -> list[dict[str, Any]]:
    """``args``, and for a promotion over a list's elements the list's last element in each
    dtype the list admits."""
    out = [args]
    if c.kind == "promotable":
        out += [{**args, p: list_dtypes.last_as(args[p], d)} for p in c.params
                if list_dtypes.mixable(args.get(p)) for d in spec.dtypes_for(product, p)]
    return out

"""The keys of the oracle's memo: which cases the oracle cannot tell apart.

The oracle is asked about each case by the generator, the judge (the drawn case, its tensors as
metadata) and the reference backend (the materialized case: the same tensors, each view
``materialize.MARGIN`` elements further into its storage). Where no clause of a spec can see a
storage offset, those questions have one answer, and the key leaves offsets out.
"""
from __future__ import annotations

import ast
from dataclasses import fields, is_dataclass
from typing import Any

from conformance.cases.tensor import TensorMeta
from conformance.spec.expressions import Expression
from conformance.spec.model import OperatorSpec
from conformance.spec.values import TensorList

#: The constraint kinds whose predicates (spec/predicates.py, spec/promotion.py) read a tensor only
#: by its dtype, format, rank, shape, strides (``contiguous`` ignores the offset), ``outside`` and
#: their expressions. ``value_in`` compares whole values: it is, where it names no tensor.
_OFFSET_BLIND_KINDS = frozenset({"not_null", "dtype_in", "same_dtype", "format_in", "same_format", "rank_in",
                                 "same_shape", "length", "broadcastable", "contiguous", "data_in",
                                 "expr", "promotable", "castable", "product_in"})

_SEES_OFFSETS: dict[int, tuple[OperatorSpec, bool]] = {}


def memo_key(spec: OperatorSpec, product: str, names: dict[str, Any]) -> tuple[Any, ...] | None:
    """A key that tells the arguments apart as the clauses do (1, 1.0 and True differ; offsets
    only where a clause can see them), or None for an argument that is not plain metadata (not
    memoized)."""
    if not all(map(_plain, names.values())):
        return None
    if not sees_offsets(spec):
        names = {name: _at_zero(value) for name, value in names.items()}
    return id(spec), product, repr(names)


def sees_offsets(spec: OperatorSpec) -> bool:
    """Whether the oracle's answer for ``spec`` may depend on a tensor's storage offset: a clause
    of a kind not known to ignore it, an expression (of a clause or of a ``data`` domain) reading
    ``.offset``, or naming a tensor other than to read an attribute (a whole tensor compared, or
    shown in a message, shows its offset)."""
    known = _SEES_OFFSETS.get(id(spec))
    if known is None or known[0] is not spec:
        known = _SEES_OFFSETS[id(spec)] = (spec, _sees_offsets(spec))  # (spec kept: its id stays its)
    return known[1]


def _sees_offsets(spec: OperatorSpec) -> bool:
    clauses = [c for c in spec.constraints if c.kind != "behavior"]  # (the oracle skips behaviours)
    tensors = {name for name, p in spec.params.items() if p.kind in ("tensor", "tensor_list")}
    if any(c.kind not in _OFFSET_BLIND_KINDS and not (c.kind == "value_in" and not tensors & set(c.params))
           for c in clauses):
        return True
    found: list[Expression] = []
    for c in clauses:
        _expressions((c.exprs, c.options), found)
    _expressions(spec.data, found)
    return any(_reads_offset(e.tree, tensors) for e in found)


def _expressions(value: Any, found: list[Expression]) -> None:
    """Every Expression inside ``value`` (containers and dataclasses, such as a Domain's bounds)."""
    if isinstance(value, Expression):
        found.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _expressions(v, found)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _expressions(v, found)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            _expressions(getattr(value, f.name), found)


def _reads_offset(tree: ast.AST, tensors: set[str]) -> bool:
    for parent in ast.walk(tree):
        if isinstance(parent, ast.Attribute) and parent.attr == "offset":
            return True
        for child in ast.iter_child_nodes(parent):
            if isinstance(child, ast.Name) and child.id in tensors and not (
                    isinstance(parent, ast.Attribute) and parent.value is child):
                return True
    return False


def _at_zero(value: Any) -> Any:
    if isinstance(value, TensorMeta):
        if not value.offset:
            return value
        key = object.__new__(type(value))  # its fields, offset 0: only a key (replace() costs 5x)
        key.__dict__.update(vars(value), offset=0)
        return key
    if isinstance(value, TensorList):
        return value.map(_at_zero)
    return value


def _plain(value: Any) -> bool:
    """Whether ``value``'s repr says all of it: numbers, strings, tuples and frozen dataclasses
    (TensorMeta) of them. (Asked of every argument of every question to the oracle: the
    builtin types by exact type first, a dataclass's fields looked up once per class.)"""
    kind = type(value)
    if kind in _ATOMS:
        return True
    if kind is tuple:
        return all(map(_plain, value))
    if kind is TensorMeta and _plain_meta(value):
        return True
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, tuple):
        return all(map(_plain, value))
    names = _frozen_fields(kind)
    return names is not None and all(_plain(getattr(value, f)) for f in names)


_ATOMS = frozenset({type(None), bool, int, float, str})


def _ints(value: Any) -> bool:
    return type(value) is tuple and all(type(d) is int for d in value)


def _plain_meta(m: TensorMeta) -> bool:
    """A TensorMeta as the suite makes them (else _plain asks field by field)."""
    return (_ints(m.shape) and (m.strides is None or _ints(m.strides)) and type(m.dtype) is str
            and type(m.offset) is int and type(m.format) is str and type(m.outside) is bool)
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _frozen_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a frozen dataclass, else None."""
    if kind not in _FIELDS:
        params = getattr(kind, "__dataclass_params__", None)
        _FIELDS[kind] = tuple(getattr(kind, "__dataclass_fields__", ())) if params and params.frozen else None
    return _FIELDS[kind]

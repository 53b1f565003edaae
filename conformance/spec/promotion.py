"""The predicates of the clause kinds ``promotable`` and ``castable`` (the vendor's dtype promotion
and cast rules, spec/dtype_rules.py, which the loader puts in the clause's ``dtype_rules`` option).

``promotable: params [self, other]`` — the inputs' dtypes have a promoted dtype: tensors are
promoted together (table 1, left to right), then with each scalar (table 2, a scalar being any
argument with a dtype and no shape). ``castable: params [self, other], to: out`` — that promoted
dtype (one parameter: its own dtype) may be cast to ``to``'s dtype: a tensor's or scalar's (input
or output), a dtype name (``to: FLOAT``), or the promoted dtype of a list of parameters (``params:
[alpha], to: [self, other]``: "alpha无法转换为self和other推导后的数据类型"). Where no promoted dtype
exists ``castable`` says nothing (the ``promotable`` clause speaks), and where the documents'
cast pages disagree its message is ``Unsettled``: the oracle files it as unspecified.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.spec.dtype_rules import DtypeRules
from conformance.spec.model import Constraint

Names = Mapping[str, Any]


class Unsettled(str):
    """A message about something the documents disagree on: never an error, never a success."""

    __slots__ = ()


def operands(c: Constraint, names: Names) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(tensors, scalars)``: the (name, dtype) of the clause's non-null arguments; a tensor
    list's elements each as a tensor (``x[i]``)."""
    return _operands(c.params, names)


def _operands(params: tuple[str, ...], names: Names
              ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    tensors: list[tuple[str, str]] = []
    scalars: list[tuple[str, str]] = []
    for p in params:
        value = names.get(p)
        if value is None:
            continue
        if isinstance(value, tuple):  # a tensor list
            tensors += [(f"{p}[{i}]", e.dtype) for i, e in enumerate(value) if e is not None]
        elif hasattr(value, "shape"):
            tensors.append((p, value.dtype))
        elif hasattr(value, "dtype"):
            scalars.append((p, value.dtype))
    return tensors, scalars


def promoted(rules: DtypeRules, tensors: list[tuple[str, str]], scalars: list[tuple[str, str]]
             ) -> tuple[str | None, str]:
    """The promoted dtype of the operands, or None and the message saying which step has none."""
    dtype = rules.promote_all(d for _, d in tensors) if tensors else None
    if tensors and dtype is None:
        return None, _show(tensors) + " have no promoted dtype (promotion table 1)"
    for name, sdtype in scalars:
        if dtype is None:  # scalars only: the first is where they start
            dtype = sdtype
            continue
        step = rules.promote(dtype, sdtype, "tensor_scalar")
        if step is None:
            return None, (f"{name}.dtype={sdtype} (a scalar) has no promoted dtype with "
                          f"{dtype} (promotion table 2)")
        dtype = step
    return dtype, ""


def promotable(c: Constraint, names: Names, product: str) -> list[str]:
    tensors, scalars = operands(c, names)
    if len(tensors) + len(scalars) < 2:
        return []
    dtype, message = promoted(c.options["dtype_rules"], tensors, scalars)
    return [message] if dtype is None else []


def castable(c: Constraint, names: Names, product: str) -> list[str]:
    rules: DtypeRules = c.options["dtype_rules"]
    tensors, scalars = operands(c, names)
    target, shown = _target(c, names, rules)
    if target is None or not tensors + scalars:
        return []
    dtype, _ = promoted(rules, tensors, scalars)
    if dtype is None:
        return []
    verdict = rules.cast(dtype, target)
    what = (f"{_show(tensors + scalars)} promote to {dtype}, which"
            if len(tensors) + len(scalars) > 1 else f"{_show(tensors + scalars)}, which")
    if verdict == "no":
        return [f"{what} cannot be cast to {shown}"]
    if verdict == "disputed":
        return [Unsettled(f"{what} may or may not be cast to {shown} "
                          f"(the cast pages differ: {rules.describe_rules()})")]
    return []


def _target(c: Constraint, names: Names, rules: DtypeRules) -> tuple[str | None, str]:
    """The dtype ``to`` stands for and how messages show it: a dtype name; one parameter's dtype;
    several parameters' promoted dtype. None where a parameter is null or they have no promoted
    dtype (nothing to cast to: the not_null or promotable clause speaks)."""
    if c.options["to_dtype"] is not None:
        return c.options["to_dtype"], c.options["to_dtype"]
    wanted = c.options["to_params"]
    tensors, scalars = _operands(wanted, names)
    if len(tensors) + len(scalars) < len(wanted) or any("[" in n for n, _ in tensors):
        return None, ""
    dtype, _ = promoted(rules, tensors, scalars)
    if dtype is None or len(wanted) == 1:
        return dtype, _show(tensors + scalars)
    return dtype, f"the dtype {_show(tensors + scalars)} promote to, {dtype}"


def _show(items: list[tuple[str, str]]) -> str:
    return " and ".join(f"{name}.dtype={dtype}" for name, dtype in items)

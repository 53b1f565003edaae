"""Value domains of tensor parameters: the ``data`` section of a spec.

```yaml
data:
  self: {range: [0, 1], open: true}               # floats strictly between 0 and 1
  target: {integers: [0, "self.shape[-1] - 1"]}   # class indices; bounds may be expressions
  label: {range: [0, .inf], when: "not logTarget"}  # only in the cases the expression holds
```

Valid cases draw every element inside its parameter's domain; a ``data_in`` clause names the
parameters whose domain the documents promise something about, and breaking it puts some elements
outside. Bounds are numbers or expressions over the other arguments (their shapes, not their data).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.spec.expressions import ExprError, Expression

#: The domain kinds a ``data`` entry may name.
DOMAIN_KINDS = ("range", "integers")


@dataclass(frozen=True)
class Domain:
    """``range``: real values in [lo, hi] ((lo, hi) when ``open``); ``integers``: whole numbers
    in [lo, hi]. A bound is a float, or an expression over the other arguments."""

    param: str
    kind: str
    lo: float | Expression
    hi: float | Expression
    open: bool = False
    when: Expression | None = None  # the cases the domain holds in (default: all)

    def applies(self, names: Mapping[str, Any]) -> bool:
        """Whether this case's values are drawn in the domain (a ``when`` over the arguments)."""
        try:
            return self.when is None or bool(self.when.evaluate(names))
        except ExprError:
            return False  # it reads a missing argument: the case breaks another clause

    def bounds(self, names: Mapping[str, Any]) -> tuple[float, float]:
        return _value(self.lo, names), _value(self.hi, names)

    def inside(self, values: np.ndarray, names: Mapping[str, Any]) -> np.ndarray:
        """Which elements lie in the domain (NaN never does)."""
        lo, hi = self.bounds(names)
        x = np.real(np.asarray(values)).astype(np.float64)  # (complex data: a dtype clause's)
        with np.errstate(invalid="ignore"):
            ok = (x > lo) & (x < hi) if self.open else (x >= lo) & (x <= hi)
            if self.kind == "integers":
                ok &= x == np.floor(x)
        return ok

    def describe(self, names: Mapping[str, Any]) -> str:
        lo, hi = self.bounds(names)
        left, right = ("(", ")") if self.open else ("[", "]")
        what = "integers" if self.kind == "integers" else "values"
        return f"{what} in {left}{_num(lo)}, {_num(hi)}{right}"


def _value(bound: float | Expression, names: Mapping[str, Any]) -> float:
    if isinstance(bound, Expression):
        return float(bound.evaluate(names))
    return float(bound)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) and abs(x) < 2**53 else repr(x)


def parse_domain(param: str, raw: Any, known: frozenset[str]) -> Domain:
    """One ``data`` entry; raises ``ValueError`` with a message naming what is wrong."""
    if not isinstance(raw, dict):
        raise ValueError(f"data.{param} must be a mapping with one of {', '.join(DOMAIN_KINDS)}")
    kinds = [k for k in DOMAIN_KINDS if k in raw]
    if len(kinds) != 1:
        raise ValueError(f"data.{param} needs exactly one of {', '.join(DOMAIN_KINDS)}")
    kind = kinds[0]
    pair = raw[kind]
    if not isinstance(pair, list) or len(pair) != 2:
        raise ValueError(f"data.{param}.{kind} must be a [low, high] pair")
    lo, hi = (_bound(b, known, f"data.{param}.{kind}") for b in pair)
    if not isinstance(lo, Expression) and not isinstance(hi, Expression) and lo > hi:
        raise ValueError(f"data.{param}.{kind} range [{lo}, {hi}] is inverted (low > high)")
    when = _bound(raw["when"], known, f"data.{param}.when") if "when" in raw else None
    if when is not None and not isinstance(when, Expression):
        raise ValueError(f"data.{param}.when must be an expression, got {raw['when']!r}")
    return Domain(param, kind, lo, hi, bool(raw.get("open", False)), when)


def _bound(raw: Any, known: frozenset[str], where: str) -> float | Expression:
    if isinstance(raw, bool):
        raise ValueError(f"{where}: a bound is a number or an expression, got {raw!r}")
    if isinstance(raw, (int, float)):
        return float(raw)
    try:
        return Expression(str(raw), known)
    except ExprError as exc:
        raise ValueError(f"{where}: {exc}") from None

"""Parsing the draw operations of a spec's ``generate`` section (draws.py runs them)."""
from __future__ import annotations

from typing import Any

from conformance.spec.draws import (
    Below,
    Booleans,
    Bound,
    BreakStep,
    Derived,
    Draw,
    DrawError,
    Integers,
    Outside,
    Sampled,
    Shape,
    Shapes,
    SubBroadcast,
)
from conformance.spec.expressions import ExprError, Expression

_OPS = ("integers", "outside", "sampled", "booleans", "shape", "shapes", "below", "sub_broadcast", "expr")


def parse_draw(name: str, raw: Any, known: frozenset[str]) -> Draw:
    """One draw from its YAML mapping (exactly one op key); expressions may use ``known`` names."""
    if not isinstance(raw, dict):
        raise DrawError(f"draw {name!r} must be a mapping with one of {', '.join(_OPS)}")
    ops = [k for k in raw if k in _OPS]
    if len(ops) != 1:
        raise DrawError(f"draw {name!r} needs exactly one of {', '.join(_OPS)}")
    op, arg = ops[0], raw[ops[0]]
    unknown = sorted(set(raw) - {op, "min_rank"})
    if unknown:
        raise DrawError(f"draw {name!r}: unknown key(s) {', '.join(map(str, unknown))}")
    try:
        return _build(name, op, arg, raw, known)
    except ExprError as exc:
        raise DrawError(f"draw {name!r}: {exc}") from None


def _expr(value: Any, known: frozenset[str]) -> Expression:
    return Expression(str(value), known)


def _pair(value: Any, what: str) -> tuple[Any, Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise DrawError(f"{what} must be a [low, high] pair")
    return value[0], value[1]


def _count(value: Any, name: str, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DrawError(f"draw {name!r}: {key} must be a non-negative integer, got {value!r}")
    return value


def _build(name: str, op: str, arg: Any, raw: dict[str, Any], known: frozenset[str]) -> Draw:
    if op == "integers":
        lo, hi = _pair(arg, f"draw {name!r}: integers")
        return Integers(name, Bound(_expr(lo, known)), Bound(_expr(hi, known)))
    if op == "outside":
        lo, hi = _pair(arg, f"draw {name!r}: outside")
        return Outside(name, Bound(_expr(lo, known)), Bound(_expr(hi, known)))
    if op == "sampled":
        if not isinstance(arg, list) or not arg:
            raise DrawError(f"draw {name!r}: sampled needs a non-empty list")
        return Sampled(name, list(arg))
    if op == "booleans":
        return Booleans(name)
    if op == "below":
        return Below(name, _expr(arg, known))
    if op == "sub_broadcast":
        return SubBroadcast(name, _expr(arg, known), _count(raw.get("min_rank", 0), name, "min_rank"))
    if op == "expr":
        return Derived(name, _expr(arg, known))
    if op == "shapes":
        return _shapes(name, arg, known)
    return _shape(name, arg, known)


def _shapes(name: str, arg: Any, known: frozenset[str]) -> Shapes:
    """``shapes: {count: [lo, hi], same: bool, <shape keys>}``: a tensor list's element shapes."""
    if not isinstance(arg, dict) or "count" not in arg:
        raise DrawError(f"draw {name!r}: shapes needs count (and rank and dims)")
    count = arg["count"]
    lo, hi = _pair(count, f"draw {name!r}: shapes count") if isinstance(count, list) else (count, count)
    same = arg.get("same", False)
    if not isinstance(same, bool):
        raise DrawError(f"draw {name!r}: same must be true or false")
    each = _shape(name, {k: v for k, v in arg.items() if k not in ("count", "same")}, known)
    return Shapes(name, (Bound(_expr(lo, known)), Bound(_expr(hi, known))), each, same)


def _shape(name: str, arg: Any, known: frozenset[str]) -> Shape:
    if not isinstance(arg, dict) or "rank" not in arg or "dims" not in arg:
        raise DrawError(f"draw {name!r}: shape needs rank and dims")
    unknown = sorted(set(arg) - {"rank", "dims", "empty", "max_numel", "numel"})
    if unknown:
        raise DrawError(f"draw {name!r}: unknown shape key(s) {', '.join(unknown)}")
    rank = arg["rank"]
    lo, hi = _pair(rank, "shape rank") if isinstance(rank, list) else (rank, rank)
    dlo, dhi = _pair(arg["dims"], "shape dims")
    if not (isinstance(dlo, int) and isinstance(dhi, int) and 0 <= dlo <= dhi):
        raise DrawError(f"draw {name!r}: dims must be integers 0 <= low <= high")
    empty = arg.get("empty", "none")
    if empty not in ("none", "first", "any"):
        raise DrawError(f"draw {name!r}: empty must be none, first or any")
    numel = None
    if "numel" in arg:
        nlo, nhi = _pair(arg["numel"], f"draw {name!r}: shape numel")
        numel = (Bound(_expr(nlo, known)), Bound(_expr(nhi, known)))
    return Shape(name, (Bound(_expr(lo, known)), Bound(_expr(hi, known))), (dlo, dhi), empty,
                 _count(arg.get("max_numel", 4096), name, "max_numel"), numel=numel)


def parse_break_step(name: str, raw: Any, draws: dict[str, Draw], known: frozenset[str]) -> BreakStep:
    """A ``break`` entry: ``{mode: M, ...options}`` or a replacement draw mapping."""
    if name not in draws:
        raise DrawError(f"break names unknown draw {name!r} (draws: {', '.join(draws)})")
    if isinstance(raw, dict) and "mode" in raw:
        mode = raw["mode"]
        if mode not in draws[name].modes:
            modes = ", ".join(draws[name].modes) or "none"
            raise DrawError(f"draw {name!r} cannot be broken in mode {mode!r} (modes: {modes})")
        return BreakStep(name, mode=mode, options={k: v for k, v in raw.items() if k != "mode"})
    return BreakStep(name, draw=parse_draw(name, raw, known))

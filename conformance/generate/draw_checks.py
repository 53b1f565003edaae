"""The dry run's checks of a spec's program draw by draw (spec/loader.py has already read it):
literal ranges in order and ranks in bounds, then every draw and arg evaluated under one chooser,
so a failure names the draw or arg at fault rather than the whole case.

Apart from dry_run.py, which runs these under its choosers and then checks whole cases (saved,
judged, broken); ``attempt`` is how both turn an evaluation error into a ``SpecError``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from conformance.errors import CaseError, SpecError
from conformance.spec.draws import Chooser, Integers, Shape, Shapes
from conformance.spec.expressions import ExprError
from conformance.spec.model import OperatorSpec

Fail = Callable[..., SpecError]  # (message, *path of keys) -> SpecError naming file, line, field
T = TypeVar("T")

# What a draw or expression raises on a value of the wrong type or size (ExprError wraps most).
RUN_ERRORS = (ExprError, CaseError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError,
               AttributeError, OverflowError)
# A shape draw builds a list of ``rank`` dims: far above any aclnn rank, and far below a hang.
MAX_RANK = 64


def check_literal_ranges(spec: OperatorSpec, fail: Fail) -> None:
    """Ranges written as two numbers must be in order (and a rank in bounds) whatever is drawn."""
    for draw in spec.program.draws:
        ranges = []
        if isinstance(draw, Shapes):
            ranges.append(("count", _constant(draw.count[0]), _constant(draw.count[1])))
            draw = draw.each
        if isinstance(draw, Shape):
            ranges.append(("rank", _constant(draw.rank[0]), _constant(draw.rank[1])))
        elif isinstance(draw, Integers):
            ranges.append(("integers", _constant(draw.lo), _constant(draw.hi)))
        at = ("generate", "draws", draw.name)
        for what, lo, hi in ranges:
            if what == "rank" and any(b is not None and not 0 <= b <= MAX_RANK for b in (lo, hi)):
                raise fail(f"draw {draw.name!r}: rank must lie in [0, {MAX_RANK}], got [{lo}, {hi}]", *at)
            if what == "count" and lo is not None and lo < 0:
                raise fail(f"draw {draw.name!r}: count must be >= 0, got {lo}", *at)
            if lo is not None and hi is not None and lo > hi:
                raise fail(f"draw {draw.name!r}: {what} range [{lo}, {hi}] is inverted (low > high)", *at)


def _constant(bound: Any) -> Any:
    """The bound's value when it names no draw (a literal), else None."""
    try:
        return bound.value({})
    except RUN_ERRORS:
        return None


def dry_run_program(spec: OperatorSpec, ch: Chooser, label: str, fail: Fail) -> None:
    """Draw by draw and arg by arg (as generation.build_case does), so a failure names its key."""
    env: dict[str, Any] = {}
    for draw in spec.program.draws:
        if isinstance(draw, (Shape, Shapes)):
            _check_rank(draw if isinstance(draw, Shape) else draw.each, env, label, fail)
        env[draw.name] = attempt(lambda d=draw: d.value(env, ch), f"draw {draw.name!r}", label,
                                 fail, "generate", "draws", draw.name)
    for name, expr in spec.program.args.items():
        value = attempt(lambda e=expr: e.evaluate(env), f"args.{name}", label, fail,
                        "generate", "args", name)
        kind = spec.params[name].kind
        if kind == "tensor" and value is not None and not _is_shape(value):
            raise fail(f"args.{name} must give a shape (non-negative integers) or null for tensor "
                       f"parameter {name!r}; at the {label} it gives {value!r}", "generate", "args",
                       name)
        if kind == "tensor_list" and value is not None and not (
                isinstance(value, (list, tuple)) and all(_is_shape(v) for v in value)):
            raise fail(f"args.{name} must give a list of shapes or null for tensor_list parameter "
                       f"{name!r}; at the {label} it gives {value!r}", "generate", "args", name)


def _check_rank(draw: Shape, env: dict[str, Any], label: str, fail: Fail) -> None:
    lo, hi = (attempt(lambda b=b: b.value(env), f"draw {draw.name!r}: rank", label, fail,
                      "generate", "draws", draw.name) for b in draw.rank)
    if not 0 <= lo <= hi <= MAX_RANK:
        raise fail(f"draw {draw.name!r}: rank range [{lo}, {hi}] at the {label} is not "
                   f"0 <= low <= high <= {MAX_RANK}", "generate", "draws", draw.name)


def attempt(run: Callable[[], T], what: str, label: str, fail: Fail, *path: Any) -> T:
    try:
        return run()
    except RUN_ERRORS as exc:
        raise fail(f"{what} fails on the values drawn at the {label}: {exc}", *path) from None


def _is_shape(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in value)

"""A spec's ``generate`` section: how to draw valid cases, and how to break each clause.

```yaml
generate:
  draws:                  # in order; each name is visible to later expressions and to args
    rank: {integers: [4, 5]}
    shape: {shape: {rank: rank, dims: [1, 4], empty: first}}
  args: {self: shape, gradInput: shape, ...}   # tensor args: their shape; others: their value
  views: [strided, transposed, offset]         # layouts valid cases may use (see layouts.py)
  examples: [{args: ...}]                      # worked examples, in case-file form
  dtype_together: [{params: [gateOut, x], from: X-REVIEW-3}]  # valid cases keep them one dtype
```
and, on an ``expr`` clause, ``break: {draw: {mode: M} | replacement draw}``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.spec.draw_parse import parse_break_step, parse_draw
from conformance.spec.draws import BreakStep, Draw, DrawError
from conformance.spec.expressions import ExprError, Expression

#: The memory layouts a ``views`` list may name (cases/layouts.py lays them out).
VIEWS = ("strided", "transposed", "offset", "stride0")


@dataclass(frozen=True)
class Together:
    """Tensors valid cases keep in one dtype where their lists share one (``dtype_together``): a
    generation constraint only, for a sentence no clause encodes (``source``: the review clause
    quoting it). Never judged, it breaks nothing and adds no broken case."""

    params: tuple[str, ...]
    source: str | None = None


@dataclass(frozen=True)
class Program:
    draws: tuple[Draw, ...]
    args: dict[str, Expression]
    views: tuple[str, ...] = ()
    breaks: dict[str, tuple[BreakStep, ...]] = field(default_factory=dict)
    examples: tuple[dict[str, Any], ...] = ()
    large: tuple[Draw, ...] = ()  # the size axis: the draws with the ``large`` section's overrides
    together: tuple[Together, ...] = ()  # the ``dtype_together`` entries


#: Names the run gives the ``large`` draws: the profile's largest tensor, in elements.
SIZE_NAMES = frozenset({"size_max"})


def parse_program(raw: dict[str, Any], params: dict[str, Any],
                  raw_breaks: dict[str, Any]) -> Program:
    """Build the program; ``raw_breaks`` maps clause ids to their ``break`` mappings.

    Raises ``DrawError`` with a message naming the draw, arg or clause at fault.
    """
    draws: dict[str, Draw] = {}
    for name, spec in (raw.get("draws") or {}).items():
        draws[name] = parse_draw(name, spec, frozenset(draws))
    known = frozenset(draws)
    args = {}
    for name, text in (raw.get("args") or {}).items():
        if name not in params:
            raise DrawError(f"args names unknown parameter {name!r}")
        try:
            args[name] = Expression(str(text), known)
        except ExprError as exc:
            raise DrawError(f"args.{name}: {exc}") from None
    missing = [p for p in params if p not in args]
    if missing:
        raise DrawError(f"args must give every parameter; missing {', '.join(missing)}")
    views = tuple(raw.get("views") or ())
    for v in views:
        if v not in VIEWS:
            raise DrawError(f"unknown view layout {v!r} (known: {', '.join(VIEWS)})")
    breaks = {cid: tuple(parse_break_step(n, step, draws, known) for n, step in steps.items())
              for cid, steps in raw_breaks.items()}
    together = tuple(Together(tuple(t["params"]), t.get("from")) for t in raw.get("dtype_together") or ())
    return Program(tuple(draws.values()), args, views, breaks, tuple(raw.get("examples") or ()),
                   _large(raw.get("large"), draws), together)


def _large(raw: Any, base: dict[str, Draw]) -> tuple[Draw, ...]:
    """The draws of the size axis: the ``large`` section's draws in their order (each may use
    ``size_max`` and the large draws before it), then the program's draws it does not replace."""
    if raw is None:
        return ()
    out: dict[str, Draw] = {}
    for name, spec in (raw.get("draws") or {}).items():
        out[name] = parse_draw(name, spec, SIZE_NAMES | frozenset(out))
    return (*out.values(), *(d for name, d in base.items() if name not in out))

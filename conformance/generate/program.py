"""A spec's ``generate`` section: how to draw valid cases, and how to break each clause.

```yaml
generate:
  draws:                  # in order; each name is visible to later expressions and to args
    rank: {integers: [4, 5]}
    shape: {shape: {rank: rank, dims: [1, 4], empty: first}}
  args: {self: shape, gradInput: shape, ...}   # tensor args: their shape; others: their value
  views: [strided, transposed, offset]         # layouts valid cases may use (see layouts.py)
  examples: [{args: ...}]                      # worked examples, in case-file form
```
and, on an ``expr`` clause, ``break: {draw: {mode: M} | replacement draw}``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.generate.breaks import AUTOMATIC, variants

__all__ = ["AUTOMATIC", "Program", "broken_cases", "build_case", "can_break", "parse_program"]
from conformance.cases.case import Case
from conformance.cases.layouts import LAYOUTS, choose_layouts
from conformance.cases.tensor import TensorMeta
from conformance.generate.choosers import Chooser
from conformance.spec.draws import BreakStep, Draw, DrawError, parse_break_step, parse_draw
from conformance.spec.expressions import ExprError, Expression
from conformance.spec.model import OperatorSpec
from conformance.spec.vocabulary import Vocabulary


@dataclass(frozen=True)
class Program:
    draws: tuple[Draw, ...]
    args: dict[str, Expression]
    views: tuple[str, ...] = ()
    breaks: dict[str, tuple[BreakStep, ...]] = field(default_factory=dict)
    examples: tuple[dict[str, Any], ...] = ()


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
        if v not in LAYOUTS[1:]:
            raise DrawError(f"unknown view layout {v!r} (known: {', '.join(LAYOUTS[1:])})")
    breaks = {cid: tuple(parse_break_step(n, step, draws, known) for n, step in steps.items())
              for cid, steps in raw_breaks.items()}
    return Program(tuple(draws.values()), args, views, breaks, tuple(raw.get("examples") or ()))


def can_break(spec: OperatorSpec, clause: str) -> bool:
    return clause in spec.program.breaks or spec.constraint(clause).kind in AUTOMATIC


def build_case(spec: OperatorSpec, vocab: Vocabulary, product: str, dtype: str, ch: Chooser,
               clause: str | None = None) -> Case | None:
    """One case (tensor args as TensorMeta). With ``clause``, the case is built to break it;
    None when that is impossible from what was drawn."""
    program = spec.program
    steps = {s.name: s for s in program.breaks.get(clause or "", ())}
    env: dict[str, Any] = {}
    for draw in program.draws:
        step = steps.get(draw.name)
        env[draw.name] = step.apply(draw, env, ch) if step else draw.value(env, ch)
    args: dict[str, Any] = {}
    for name, expr in program.args.items():
        value = expr.evaluate(env)
        if spec.params[name].kind == "tensor" and value is not None:
            value = TensorMeta(tuple(int(d) for d in value), dtype)
        elif isinstance(value, list):
            value = tuple(value)
        args[name] = value
    tensors = {k: v for k, v in args.items() if isinstance(v, TensorMeta)}
    args.update(choose_layouts(tensors, set(spec.params_of("tensor", "output")), program.views, ch))
    if clause is not None and clause not in program.breaks:
        options = variants(spec.constraint(clause), args, spec, vocab, product)
        if not options:
            return None
        args = ch.choice(options, "variant")
    return Case(spec.api, product, args)


def broken_cases(spec: OperatorSpec, vocab: Vocabulary, product: str, dtype: str, ch: Chooser,
                 clause: str) -> list[Case]:
    """Every case breaking ``clause`` from one draw: the spec's own break, or each automatic
    variant of the valid case (where ``build_case`` would pick one)."""
    if clause in spec.program.breaks:
        case = build_case(spec, vocab, product, dtype, ch, clause)
        return [case] if case is not None else []
    base = build_case(spec, vocab, product, dtype, ch)
    if base is None:
        return []
    options = variants(spec.constraint(clause), base.args, spec, vocab, product)
    return [Case(spec.api, product, args) for args in options]

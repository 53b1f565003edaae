"""Build cases from a spec's ``generate`` program: a valid case, or one breaking a named clause
(through the clause's own ``break`` entry or an automatic variant from breaks.py)."""
from __future__ import annotations

from typing import Any

from conformance.cases.case import Case
from conformance.cases.layouts import choose_layouts
from conformance.cases.tensor import TensorMeta
from conformance.generate.breaks import AUTOMATIC, variants
from conformance.spec.draws import Chooser
from conformance.spec.model import OperatorSpec
from conformance.spec.vocabulary import Vocabulary


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

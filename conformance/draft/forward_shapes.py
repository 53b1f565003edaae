"""A backward operator's gradient input whose note says it has the forward's output shape ("和正向的
输出shape一致", the pooling backward pages), drawn with the shape of the one tensor noted as the
forward's input ("正向的输入Tensor", "正向的输入数据"): the forward output under the identity pooling
the draft's attribute draws make (kernel and stride ones, padding zeros; an adaptive pool to the input's
own size). Drawn apart, a valid case would pair a gradient of any shape with the input, which such
a kernel refuses; a guess all the same, listed for review."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Context
from conformance.draft.facts import Review, Sentence, Where

FORWARD_OUTPUT = re.compile(r"(?:和|与)正向的?输出的?shape(?:保持)?一致")
FORWARD_INPUT = re.compile(r"^正向的?输入(?:的)?(?:Tensor|tensor|数据|张量)")


def _notes(ctx: Context, name: str) -> list[str]:
    row = ctx.rows.get(name)
    return [s.text for s in (row.description, *row.usage)] if row is not None else []


def pairs(ctx: Context) -> list[tuple[str, str]]:
    """(gradient, forward input) for each tensor noted to have the forward output's shape."""
    inputs = [t for t in ctx.tensors if ctx.params[t]["role"] == "input"
              and any(FORWARD_INPUT.search(n) for n in _notes(ctx, t))]
    if len(inputs) != 1:
        return []
    return [(t, inputs[0]) for t in ctx.tensors
            if t != inputs[0] and any(FORWARD_OUTPUT.search(n) for n in _notes(ctx, t))]


def resolve(ctx: Context, forward: list[tuple[str, str]], draws: dict[str, Any],
            draw_name: Callable[[str], str], review: Review, where: Callable[[Context, str], Where]) -> None:
    """Padding arrays drawn by the generic guess (ones) drawn as zeros, so the attributes are the
    identity the gradient's draw assumes; each pairing listed for review, and any array drawn
    otherwise (a value a clause gives) named as breaking the assumption."""
    if not forward:
        return
    off = []
    for name in ctx.of_kind("int_array"):
        want, draw = (0 if "pad" in name.lower() else 1), draws.get(draw_name(name), {})
        run = _RUN.fullmatch(str(draw.get("expr", "")))
        if want == 0 and run and run[1] == "1":
            draws[draw_name(name)] = {"expr": f"[0]{run[2] or ''}"}
        elif not run or int(run[1]) != want:
            off.append(name)
    for grad, forward_input in forward:
        note = (f"; the draws of {', '.join(off)} are not the identity, so the shape is wrong where "
                "they change it" if off else "")
        review(Sentence(f"Drafted guess: {grad} has the forward output's shape; the draft draws it "
                        f"with {forward_input}'s shape, the forward output under identity attributes "
                        f"(kernel, stride and dilation 1, padding 0){note}: check the generate section",
                        where(ctx, grad)), doc="contract")


_RUN = re.compile(r"\[(\d+)\](\s*\*\s*\w+)?")  # "[1] * 2", "[0]": a run of one value

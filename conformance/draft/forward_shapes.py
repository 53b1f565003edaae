"""A backward operator's gradient input whose note says it has the forward's output shape ("和正向的
输出shape一致", the pooling backward pages), drawn with the shape of the one tensor noted as the
forward's input ("正向的输入Tensor", "正向的输入数据"): the forward output under the identity pooling
the draft's attribute draws make (kernel and stride ones, padding zeros; an adaptive pool to the input's
own size). Drawn apart, a valid case would pair a gradient of any shape with the input, which such
a kernel refuses; a guess all the same, listed for review."""
from __future__ import annotations

import re
from collections.abc import Callable

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


def review_pairs(ctx: Context, drawn: list[tuple[str, str]], review: Review,
                 where: Callable[[Context, str], Where]) -> None:
    for grad, forward_input in drawn:
        review(Sentence(f"Drafted guess: {grad} has the forward output's shape; the draft draws it "
                        f"with {forward_input}'s shape, the forward output under identity attributes "
                        "(kernel and stride 1, padding 0): check the generate section",
                        where(ctx, grad)), doc="contract")

"""Rank limits broken by drawing a tensor anew at the rank past the limit.

The automatic break of a ``rank_in`` clause puts ones in front of each tensor it names. Where
other draws are computed from that tensor's drawn shape (a reduction's outputs, LayerNorm's
normalizedShape and weight as its trailing dimensions), those stay computed from the old rank,
and the case breaks their ties too: the clause is never broken alone and the draft drops it.
Drawing the tensor's shape again at the rank past the limit lets everything computed from it
follow. A set of ranks ("self的维度不为3维或者4维") limits it from both sides. A clause limiting the
rank from both sides is broken on the one side that can be drawn:
the rank below its least only where the tensor may have that rank (``least``; None where
dropping leading dimensions, as the automatic break does, already keeps what follows).
"""
from __future__ import annotations

import copy
from typing import Any

from conformance.draft.context import Clause


def redraw_breaks(draws: dict[str, Any], base: str, x: str, clauses: list[Clause],
                  least: int | None = 0) -> None:
    """Each rank_in clause on ``x`` (drawn by ``base``, a shape draw) without a break of its own:
    broken by ``base`` drawn at the one rank past its limit that can be drawn."""
    shape = draws.get(base, {}).get("shape")
    if not isinstance(shape, dict):
        return
    for c in clauses:
        if c["kind"] != "rank_in" or x not in c["params"] or "break" in c or c.get("same"):
            continue
        high, low = max(c.get("ranks", [c.get("max")])), min(c.get("ranks", [c.get("min")]))
        past = [*([high + 1] if high is not None else []),
                *([low - 1] if low is not None and least is not None and low - 1 >= least else [])]
        if len(past) == 1:
            c["break"] = {base: {"shape": {**copy.deepcopy(shape), "rank": [past[0], past[0]]}}}

"""What the tie readers (count_ties.py, spatial_ties.py, insert_ties.py, bmm_ties.py) do once their
draws are set: give each clause its break, or remove it and review its row where it has none, and
drop the guesses no argument reads any more."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, reading
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import drop_unused


def settle(clauses_: list[Clause], mine: list[Clause], step_of: Callable[[Clause], Any], review: Review,
           where: Callable[[Clause], Any]) -> None:
    """Each of ``mine`` gets ``step_of(c)`` as its break; one with none is removed and its row
    reviewed (``where(c)``: where its parameter's row is)."""
    for c in mine:
        step = step_of(c)
        if not step:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(c)), reading(c))
            continue
        c["break"] = step


def drop_guesses(draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
                 before: set[Any]) -> None:
    """The draws ``before`` (the arguments' draws before a reader drew them anew) that no argument,
    draw or break reads any more, deleted."""
    for old in before - set(args.values()):
        drop_unused(draws, args, clauses_, old)

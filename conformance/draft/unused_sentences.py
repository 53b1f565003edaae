"""Review clauses for what a page says that no clause encodes: usage notes and constraints
sentences that look like promises, every sentence the reader could not place, and the parameters
the spec language cannot pass (clauses.py calls it once every clause is built)."""
from __future__ import annotations

from collections.abc import Callable

from conformance.draft.closest import closest
from conformance.draft.context import Context
from conformance.draft.facts import Sentence
from conformance.draft.usage import looks_like_constraint

Review = Callable[..., None]  # Draft.review(sentence, closest_name=None, doc="upstream")


def review_unused(ctx: Context, review: Review) -> None:
    """A review clause for each sentence no clause used that looks like a promise, each unplaced
    sentence, and each parameter left out of the draft or passed otherwise than the page types it."""
    for row in ctx.facts.params:
        for s in row.usage:
            if s not in ctx.used and looks_like_constraint(s.text):
                review(s, closest(s.text))
    for s in ctx.facts.constraints:
        if s not in ctx.used and looks_like_constraint(s.text):
            review(s, closest(s.text))
    for s in ctx.facts.unread:
        review(s, closest(s.text))
    rows = ctx.rows
    for name, ctype in ctx.omitted.items():
        where = rows[name].where if name in rows else ctx.facts.params[0].where if ctx.facts.params else None
        if where is not None:
            review(Sentence(f"{name} ({ctype}): the spec language has no kind for this C type, so "
                            "the draft leaves the argument out and a backend cannot call the "
                            "operator with it", where), doc="contract")
    for name in ctx.of_kind("float"):
        if name in rows and any(p.name == name and p.ctype == "double" for p in ctx.facts.prototype):
            review(Sentence(f"{name} (double): the suite passes a float attribute as a C float",
                            rows[name].where), doc="contract")

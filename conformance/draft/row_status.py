"""The status an error row's clauses carry. A name the vocabulary knows, whose code column agrees,
is the row's; a name new to the vocabulary joins the pack's, with the row's code. A row whose name
and code disagree (a page gives ACLNN_ERR_PARAM_NULLPTR beside 361001, the runtime error's code)
promises neither, and one whose name is not a status name promises nothing: their clauses are
``unspecified`` (observed, never failed) and a review clause says why, once per page."""
from __future__ import annotations

import re

from conformance.draft.context import Context
from conformance.draft.facts import Sentence
from conformance.spec.vocabulary import Vocabulary


class RowStatus:
    def __init__(self, ctx: Context, vocab: Vocabulary) -> None:
        self.ctx, self.vocab = ctx, vocab
        self.unread: dict[str, Sentence] = {}  # the review clause's text → the first row saying it

    def of(self, status: str, code: int | None, sentence: Sentence) -> str:
        known = self.vocab.status_codes.get(status)
        if known is None and code is not None and re.fullmatch(r"ACLNN_[A-Z_]+", status):
            self.ctx.new_statuses.setdefault(status, code)  # the pack vocabulary adds it
            return status
        if known is None:
            self.unread.setdefault(f"{status}: ", sentence)
            return "unspecified"
        if code is not None and code != known:
            named = next((n for n, c in self.vocab.status_codes.items() if c == code), None)
            said = f"{status} is {known}, but the row gives {code}" + (f" ({named})" if named else "")
            self.unread.setdefault(f"{said}; which a call gets is not said: ", sentence)
            return "unspecified"
        return status

    def reviews(self) -> list[Sentence]:
        return [Sentence(prefix + s.text, s.where) for prefix, s in sorted(self.unread.items())]

"""Which pattern a sentence no pattern read comes closest to: the name a review clause gives a
person to start from (``closest: …`` in a draft)."""
from __future__ import annotations

import difflib

from conformance.draft.pattern_table import PATTERNS

# Phrasings no pattern reads into a clause yet: only closest() names them, for the review item.
_NAMES_ONLY: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("element count", ("元素个数", "元素数"), "alpha元素个数不为1。"),
)


def closest(text: str) -> str:
    """The pattern (or known phrasing) nearest ``text``: most keyword characters in common (half
    as many without its first keyword), then the most similar example sentence."""
    candidates = [(p.name, p.keywords, p.example) for p in PATTERNS] + list(_NAMES_ONLY)
    lowered = text.lower()

    def score(item: tuple[str, tuple[str, ...], str]) -> tuple[float, float]:
        name, keywords, example = item
        hits = sum(len(k) for k in keywords if k.lower() in lowered)
        anchored = hits if keywords[0].lower() in lowered else hits / 2
        return anchored, difflib.SequenceMatcher(None, text, example).ratio()

    return max(candidates, key=score)[0]


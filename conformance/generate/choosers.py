"""Where the choices of a case come from: Hypothesis (so cases shrink) or fixed boundary values.

The draw operations of a spec's ``generate`` section are written once against this interface; the
Hypothesis chooser explores, the fixed chooser gives the deterministic boundary phase its
low-end / high-end cases. Labels name a choice so a fixed chooser can switch single ones on.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")


class HypothesisChooser:
    """Draws through a composite strategy's ``draw``; shrinks toward low ints, first options, False."""

    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def integer(self, lo: int, hi: int, label: str) -> int:
        return self.draw(_integers(lo, max(lo, hi)), label=label)

    def choice(self, options: Sequence[T], label: str) -> T:
        return self.draw(_sampled(options), label=label)

    def boolean(self, label: str) -> bool:
        return self.draw(st.booleans(), label=label)


#: Strategies already made, by their parameters: a new strategy object is validated by Hypothesis
#: at its first draw (a tenth of the time of a rejected case), an old one is not. Only options
#: of plain strings and ints are kept (1 and True are equal keys but other options); the draws
#: are the same either way.
_STRATEGIES: dict[tuple[Any, ...], st.SearchStrategy[Any]] = {}


def _integers(lo: int, hi: int) -> st.SearchStrategy[int]:
    return _kept(("integers", lo, hi), lambda: st.integers(lo, hi))


def _sampled(options: Sequence[T]) -> st.SearchStrategy[T]:
    if all(type(o) is str or type(o) is int for o in options):
        return _kept(("sampled", *options), lambda: st.sampled_from(list(options)))
    return st.sampled_from(list(options))


def _kept(key: tuple[Any, ...], make: Any) -> st.SearchStrategy[Any]:
    strategy = _STRATEGIES.get(key)
    if strategy is None:
        if len(_STRATEGIES) >= 4096:
            _STRATEGIES.clear()
        strategy = _STRATEGIES[key] = make()
    return strategy


class FixedChooser:
    """``mode`` "min" takes low ends and first options, "max" high ends and last options; a boolean
    is True only when its label is in ``flags``; ``picks`` names the option of single labels."""

    def __init__(self, mode: str = "min", flags: frozenset[str] = frozenset(),
                 picks: dict[str, Any] | None = None) -> None:
        self.mode, self.flags, self.picks = mode, flags, dict(picks or {})

    def integer(self, lo: int, hi: int, label: str) -> int:
        return max(lo, hi) if self.mode == "max" and label not in _ALWAYS_LOW else lo

    def choice(self, options: Sequence[T], label: str) -> T:
        if label in self.picks and self.picks[label] in options:
            return self.picks[label]
        return options[-1] if self.mode == "max" and label not in _ALWAYS_LOW else options[0]

    def boolean(self, label: str) -> bool:
        return label in self.flags


class SeededChooser:
    """Uniform choices from a seeded ``random.Random``: the same seed makes the same case, in any
    process (a search over a few draws that stays deterministic, exemptions.py)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, lo: int, hi: int, label: str) -> int:
        return self.rng.randint(lo, max(lo, hi))

    def choice(self, options: Sequence[T], label: str) -> T:
        return options[self.rng.randrange(len(options))]

    def boolean(self, label: str) -> bool:
        return self.rng.random() < _RARE.get(label, 0.5)


# Flags a seeded search seldom sets: an empty tensor or a view is a case of its own, not the usual.
_RARE = {"empty": 0.1, "views": 0.2}


# Choices that stay at their simplest even in "max" mode: boundary cases keep ordinary data.
_ALWAYS_LOW = frozenset({"seed", "regime", "excess", "drop"})

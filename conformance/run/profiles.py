"""Run profiles: how many examples per item and which products by default."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    max_examples: int
    one_product: bool  # quick: only the backend's product (or DEFAULT_PRODUCT)
    summary: str
    case_timeout: float  # seconds one call may take in an isolated worker
    size_max: int  # the size axis: its largest tensor, in elements (from 64 Ki; ci 1.25 Mi so its
    # high-end cases pass 1 Mi, thorough 16 Mi)
    large_examples: int  # size-axis cases per (operator, product, dtype) and value regime, besides
    # the high-end case (ci: 2, so a pad listing six product lines and six dtypes keeps to its
    # 30-second budget; thorough draws 8)


DEFAULT_PRODUCT = "atlas-a2"  # supports both operators and every documented dtype

PROFILES = {p.name: p for p in (
    Profile("quick", 25, True, "both operators on one product, a few seconds against the reference", 10,
            256 * 1024, 1),
    Profile("ci", 60, False, "every product, a few minutes at most", 30, 5 * 256 * 1024, 2),
    Profile("thorough", 400, False, "every product, many examples per item", 120, 16 * 1024 * 1024, 8),
)}

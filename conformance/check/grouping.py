"""One finding per way a backend crashed in an item, with how many of its cases crashed so.

A backend that raises on every call fails every case the same way; a finding per case buried the
report (KL on one product, quick: 123 findings in 33 items, 50 of them one item's KL-DTYPE crash).
Two ``crash`` or ``timeout`` findings are the same failure when they have the same item, clause,
kind and message once the case is taken out of the message:

- the call the judge appends (`` [api(args)]``) is dropped;
- every number (decimal, or hex with ``0x``) and every list of them (a shape: ``(2, 3)``, ``(1,)``,
  ``[4,5]``, ``2x3``) reads ``#``: exception messages often embed the case's shapes, sizes and
  addresses (``expected 4 dims, got 5``); digits inside a name stay (FLOAT16 is not INT8). The
  price: two errors told apart only by a number (an error code, an exit code) are one finding; the
  exception's type and words, and a signal's name (SIGSEGV, SIGABRT), still tell them apart.

The finding kept is the first case's (its case file and replay line); ``details.occurrences``
counts the cases (1 when none repeated it) and its message says how many more there were.
Findings of other kinds are never grouped.
"""
from __future__ import annotations

import re

from conformance.check.results import Finding
from conformance.spec.model import PROCESS_KINDS

_ONE = r"(?:0[xX][0-9a-fA-F]+|\d+)"
_NUMBERS = re.compile(rf"(?<!\w){_ONE}(?:\s*[,x*]\s*{_ONE})*(?:\s*,(?=\s*[)\]]))?")
OCCURRENCES = "occurrences"


def crash_key(finding: Finding) -> tuple[str, str, str, str] | None:
    """What makes two crash or timeout findings the same failure; None for other kinds."""
    if finding.kind not in PROCESS_KINDS:
        return None
    message = finding.message
    call = message.rfind(f" [{finding.api}(")
    text = message[:call] if call >= 0 else message
    return finding.item, finding.clause, finding.kind, _NUMBERS.sub("#", text)


def counted(findings: list[Finding], new: Finding) -> bool:
    """Count ``new`` in the finding of ``findings`` it repeats and say True (drop it); else start
    its count and say False (keep it)."""
    key = crash_key(new)
    if key is None:
        return False
    for kept in findings:
        if crash_key(kept) == key:
            kept.details[OCCURRENCES] += 1
            return True
    new.details[OCCURRENCES] = 1
    return False


def say_occurrences(findings: list[Finding]) -> None:
    """Append to each grouped finding's message how many more cases failed the same way (once,
    when its item is done)."""
    for f in findings:
        more = f.details.get(OCCURRENCES, 1) - 1
        if more:
            f.message += f" (and {more} more case{'s' if more > 1 else ''} of this item failed the same way)"

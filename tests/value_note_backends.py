"""Backends of the toy p-norm operator (tests/fixtures/value_note_pages), for
tests/test_draft_value_notes.py: one wrong, taking a negative p (numpy's vector norm takes one:
a negative order is a harmonic-like mean there, not refused)."""
from __future__ import annotations

from norm_backends import ignoring

from conformance.backends.reference import OracleBackend


class NegativePTaken(ignoring(OracleBackend)):
    """Wrong: a negative p is taken, as numpy's ``linalg.norm`` takes a negative order."""

    name = "negative-p-taken"
    row = "p的值不满足要求 / 数值需大于等于0。"

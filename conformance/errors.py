"""The one error type users see: a message naming the file, line and field, and exit code 2."""
from __future__ import annotations


class ConformanceError(Exception):
    """A usage or configuration error (bad spec, case file, adapter or command line).

    The CLI prints ``str(error)`` and exits 2; it never shows a traceback for these.
    """

    exit_code = 2

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "")
        if self.field:
            where = f"{where}: {self.field}" if where else self.field
        return f"{where}: {self.message}" if where else self.message


class SpecError(ConformanceError):
    """A spec file that does not load or does not validate."""


class CaseError(ConformanceError):
    """A case file (or case dict) that does not describe a call of a known operator."""


class UsageError(ConformanceError):
    """A bad command-line argument or backend specification."""

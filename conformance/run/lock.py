"""One run at a time per report dir. Two runs writing the same journal/ and cases/ would interleave
their lines and clear each other's files without a word, so the starter of a run (``launch``, or the
pytest plugin when pytest was started bare; never an xdist worker) holds an exclusive ``flock`` on
``REPORT_DIR/.conformance-lock`` for the whole run. A second run is refused with one line naming the
dir and the holder's pid, before it changes anything.

The kernel drops the lock when its holder exits, however it exits (even ``kill -9``), so a stale
lock cannot block a later run. The file itself stays (deleting it would let a third run lock a new
file while a second still holds the old one); a run never deletes it, and it holds the holder's pid.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from conformance.errors import UsageError

LOCK_FILE = ".conformance-lock"


class ReportDirLock:
    """The exclusive lock on one report dir: ``acquire`` (``UsageError`` when another run holds
    it) and ``release``; also a context manager."""

    def __init__(self, report_dir: str | Path) -> None:
        self.report_dir = Path(report_dir)
        self.path = self.report_dir / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        self.report_dir.mkdir(parents=True, exist_ok=True)
        # no O_TRUNC: the holder's pid must survive a refused run opening the file
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _pid_in(fd)
            os.close(fd)
            by = f"another conformance run (pid {holder})" if holder else "another conformance run"
            raise UsageError(f"--report-dir {self.report_dir}: {by} is writing there; wait for it to "
                             "end or give another directory (nothing was changed)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)  # no pid of a run that is over
        finally:
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> ReportDirLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _pid_in(fd: int) -> str:
    text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    return text if text.isdigit() else ""  # the holder may not have written it yet

"""Whether a case's tensors fit in this machine's memory, asked before any of them is allocated.

A hand-edited case file may describe tensors of petabytes; numpy's own refusal (``MemoryError``)
comes only once the allocation is tried, and an allocation that merely overcommits fails later,
at the first write. So a command about to materialise a case asks first, with the same size
computation ``materialize`` allocates by (``storage_bytes``).
"""
from __future__ import annotations

import os
from pathlib import Path

from conformance.cases.case import Case
from conformance.cases.materialize import storage_bytes
from conformance.errors import CaseError
from conformance.spec.model import SpecSet

_MEMINFO = Path("/proc/meminfo")
_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def available_memory() -> int | None:
    """Bytes of memory this process could allocate now: Linux's MemAvailable, else the physical
    memory; None where neither is known (then no case is refused)."""
    try:
        for line in _MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024  # the kernel writes kB meaning KiB
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def human_bytes(n: int) -> str:
    """``n`` bytes in binary units to 3 significant digits: ``3.55 PiB``, ``88 bytes``."""
    value, unit = float(n), 0
    while value >= 1024 and unit < len(_UNITS) - 1:
        value, unit = value / 1024, unit + 1
    return f"{n} bytes" if unit == 0 else f"{value:.3g} {_UNITS[unit]}"


def check_fits(case: Case, specs: SpecSet, file: str | None = None) -> None:
    """Raise a one-line ``CaseError`` naming ``file`` when the tensors of ``case`` alone need more
    memory than is available (the judge needs several times as much; this catches the hopeless)."""
    need, have = storage_bytes(case, specs), available_memory()
    if have is not None and need > have:
        raise CaseError(f"the case's tensors need {human_bytes(need)} ({need} bytes) of storage, "
                        f"more than the {human_bytes(have)} of memory available; nothing was run",
                        file=file)

"""Shared memory between the run and an isolated backend's worker: a file mapped by both.

Each call copies every tensor's storage buffer into the arena once; the worker's tensors are views
of the mapping (no copy, no pickling), the backend writes into them, and the run copies the buffers
back. A file in /dev/shm (memory, where Linux has it) rather than multiprocessing.shared_memory:
on Python 3.11 a worker that attaches to a SharedMemory registers it with the resource tracker,
which may unlink it under the run when the worker dies, and a dying worker is our normal case.
The arena outlives workers; the run removes it when the backend is closed.
"""
from __future__ import annotations

import mmap
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ALIGN = 64  # every buffer starts on a cache line, as a vendor kernel may expect
MIN_SIZE = 1 << 20


def _aligned(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


class Arena:
    """The run's side: a mapped file, grown (replaced by a bigger one) when a call needs more."""

    def __init__(self) -> None:
        self.path: str | None = None
        self._map: mmap.mmap | None = None
        self.size = 0

    def _grow(self, need: int) -> None:
        self.close()
        size = max(MIN_SIZE, 1 << (need - 1).bit_length())
        where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        fd, self.path = tempfile.mkstemp(prefix="conformance-arena-", dir=where)
        try:
            os.ftruncate(fd, size)
            self._map = mmap.mmap(fd, size)
        finally:
            os.close(fd)
        self.size = size

    def put(self, storages: dict[str, np.ndarray]) -> dict[str, tuple[int, Any, int]]:
        """Copy ``storages`` in; their places (byte offset, dtype, elements) for the worker."""
        places, offset = {}, 0
        for name, storage in storages.items():
            places[name] = (offset, storage.dtype, storage.size)
            offset = _aligned(offset + storage.nbytes)
        if offset > self.size:
            self._grow(offset)
        for name, storage in storages.items():
            self.view(*places[name])[...] = storage
        return places

    def view(self, offset: int, dtype: Any, count: int) -> np.ndarray:
        return np.frombuffer(self._map, dtype=dtype, count=count, offset=offset)  # type: ignore[arg-type]

    def close(self) -> None:
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:
                pass  # a view of it is still alive somewhere: the mapping goes when that view does
            self._map = None
        if self.path is not None:
            Path(self.path).unlink(missing_ok=True)
            self.path = None


class ArenaView:
    """The worker's side: the run's current arena file, mapped again when the run replaces it."""

    def __init__(self) -> None:
        self.path: str | None = None
        self._map: mmap.mmap | None = None

    def view(self, path: str, offset: int, dtype: Any, count: int) -> np.ndarray:
        if path != self.path:
            with open(path, "r+b") as fh:
                self._map = mmap.mmap(fh.fileno(), 0)
            self.path = path
        return np.frombuffer(self._map, dtype=dtype, count=count, offset=offset)  # type: ignore[arg-type]

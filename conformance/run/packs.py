"""Which spec packs a run reads: ``--specs DIR`` (or ``run_suite(specs=...)``) adds directories to
the ``CONFORMANCE_SPECS`` environment variable the spec loader reads, so every process of the run
(xdist workers, isolated backend workers) sees the same operators."""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from conformance.errors import UsageError
from conformance.spec.loader import SPECS_ENV, VOCABULARY_FILE


def use_spec_dirs(dirs: Sequence[str | Path]) -> None:
    """Add ``dirs`` (each a directory of spec files) to the active packs; ``UsageError`` naming a
    directory that is missing or holds no spec file."""
    if not dirs:
        return
    found = []
    for given in dirs:
        path = Path(given).resolve()
        if not path.is_dir():
            raise UsageError(f"--specs {given}: not a directory")
        if not any(p.name != VOCABULARY_FILE for p in path.glob("*.yaml")):
            raise UsageError(f"--specs {given}: no spec file (*.yaml) in it")
        found.append(str(path))
    old = [p for p in os.environ.get(SPECS_ENV, "").split(os.pathsep) if p]
    os.environ[SPECS_ENV] = os.pathsep.join(dict.fromkeys(old + found))

"""Run the suite from Python: what ``conformance run`` does, returning the report document."""
from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path
from typing import Any

from conformance.errors import UsageError
from conformance.report.files import load_report
from conformance.run.launch import launch
from conformance.run.packs import use_spec_dirs


def run_suite(backend: str = "reference", *, products: list[str] | None = None,
              ops: list[str] | None = None, profile: str = "ci", seed: int = 0,
              max_examples: int | None = None, report_dir: str | Path = "reports",
              workers: str | None = None, keyword: str | None = None, shard: str | None = None,
              waivers: str | Path | None = None, isolate: bool | None = None,
              case_timeout: float | None = None, quiet: bool = True,
              resume: bool = False, precision: str = "strict",
              specs: list[str | Path] | None = None, golden: str | None = None) -> dict[str, Any]:
    """Run the suite against ``backend`` and return the parsed ``report.json``; ``specs``: spec
    pack directories to load besides the shipped one (they stay active in this process);
    ``golden="torch"``: the torch mapping judges numerics of operators whose spec has no reference."""
    use_spec_dirs(specs or [])
    args = argparse.Namespace(backend=backend, product=products or [], op=ops or [], profile=profile,
                              seed=seed, max_examples=max_examples, report_dir=report_dir,
                              numprocesses=workers, keyword=keyword, exitfirst=False, shard=shard,
                              waivers=waivers, isolate=isolate, case_timeout=case_timeout, quiet=quiet,
                              resume=resume, precision=precision, golden=golden)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
        rc = launch(args)
    path = Path(report_dir) / "report.json"
    if rc in (2, 3, 4) or not path.is_file():
        raise UsageError(f"the run did not complete (pytest exit code {int(rc)}): {sink.getvalue()[-2000:]}")
    return load_report(path)

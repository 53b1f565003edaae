"""How far `conformance draft` gets over checkouts of the vendor's docs: pages found (and those
documenting no operator, apart), operators (a page may document two) drafted without error, error
rows turned into checkable clauses, drafts that lint, and (with --runs N) drafts whose quick run
against the oracle-only backend (`--backend oracle`) finishes, for every Nth operator.

Run from the repository root:
    PYTHONPATH=. python benchmarks/bench_draft.py /work/.mirror/hicann+ops-nn/repo ... [--rev HEAD]
        [--runs 10] [--out DIR]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import yaml

import conformance
from conformance.cli.main import main
from conformance.errors import ConformanceError
from conformance.generate.dry_run import load_operator
from conformance.spec.loader import SPECS_ENV, vocabulary_for

ORACLE = "oracle"  # the built-in backend answering with the documents' status codes


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else f"{part}/0"


def draft(checkout: Path, rev: str, out: Path) -> dict:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["draft", "--rev", rev, "--checkout", str(checkout), "-o", str(out), "--stats"])
    return json.loads((out / "draft-stats.json").read_text(encoding="utf-8"))


def lint(out: Path) -> Counter:
    vocab, _ = vocabulary_for((out,))
    result: Counter = Counter()
    for path in sorted(out.glob("aclnn*.yaml")):
        try:
            load_operator(path, vocab)
            result["ok"] += 1
        except ConformanceError as exc:
            result["failed"] += 1
            print(f"  lint: {exc}")
    return result


def quick_runs(out: Path, every: int, work: Path) -> Counter:
    """Every ``every``-th draft alone in a pack, run (quick, 3 examples, its first product, and
    its first unsupported line where a product_in clause promises a code there)."""
    result: Counter = Counter()
    for path in sorted(out.glob("aclnn*.yaml"))[::every]:
        pack = work / path.stem
        pack.mkdir(parents=True)
        shutil.copy(path, pack / path.name)
        if (out / "vocabulary.yaml").is_file():
            shutil.copy(out / "vocabulary.yaml", pack / "vocabulary.yaml")
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        rejected = list(spec.get("unsupported", {}))[:1] \
            if any(c["kind"] == "product_in" for c in spec["constraints"]) else []
        try:
            report = conformance.run_suite(ORACLE, specs=[pack], ops=[spec["api"]],
                                           products=[spec["products"][0], *rejected], profile="quick",
                                           max_examples=3, isolate=False, report_dir=work / "reports")
            result["finished" if not report["errors"] else "errors"] += 1
            for error in report["errors"][:1]:
                print(f"  run {spec['api']}: {len(report['errors'])} item error(s), first: "
                      f"{str(error)[:200]}")
            result["with findings"] += bool(report["findings"])
        except Exception as exc:  # noqa: BLE001 - the benchmark counts what did not finish
            result["did not finish"] += 1
            print(f"  run {spec['api']}: {type(exc).__name__}: {exc}")
        finally:
            os.environ.pop(SPECS_ENV, None)
    return result


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--runs", type=int, default=0, metavar="N", help="quick-run every Nth draft")
    parser.add_argument("--out", type=Path, help="keep the drafts here (default: a temporary dir)")
    args = parser.parse_args(argv)
    root = args.out or Path(tempfile.mkdtemp(prefix="bench-draft-"))
    totals: Counter = Counter()
    for checkout in args.checkouts:
        out = root / checkout.resolve().parent.name
        shutil.rmtree(out, ignore_errors=True)
        started = time.perf_counter()
        t = draft(checkout, args.rev, out)["total"]
        seconds = time.perf_counter() - started
        linted = lint(out)
        print(f"{checkout}: {t['pages']} pages ({t['not_operator']} documenting no operator, "
              f"not counted), {t['operators']} operators, drafted {_share(t['drafted'], t['operators'])} "
              f"({t['skipped']} not written: operator drafted from another page) in {seconds:.0f} s; "
              f"error rows checkable {_share(t['error_rows_checkable'], t['error_rows'])}; "
              f"drafts that lint {_share(linted['ok'], linted['ok'] + linted['failed'])}")
        totals.update({k: t[k] for k in ("pages", "not_operator", "operators", "drafted", "error_rows",
                                         "error_rows_checkable")})
        totals.update(linted)
        if args.runs:
            runs = quick_runs(out, args.runs, Path(tempfile.mkdtemp(prefix="bench-runs-")))
            print(f"  quick runs against the oracle: {dict(runs)}")
            totals.update({f"runs {k}": v for k, v in runs.items()})
    ran = sum(totals[f"runs {k}"] for k in ("finished", "errors", "did not finish"))
    print(f"total: {totals['pages']} pages, {totals['not_operator']} documenting no operator (not "
          f"counted); operators drafted {_share(totals['drafted'], totals['operators'])}; error rows "
          f"checkable "
          f"{_share(totals['error_rows_checkable'], totals['error_rows'])}; drafts that lint "
          f"{_share(totals['ok'], totals['ok'] + totals['failed'])}"
          + (f"; quick runs finished without errors {_share(totals['runs finished'], ran)}"
             if args.runs else ""))
    print(f"drafts in {root}")


if __name__ == "__main__":
    main_()

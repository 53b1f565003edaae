"""``conformance run`` (drives the pytest plugin) and ``conformance replay`` (reruns a saved case)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from conformance.cases.footprint import check_fits, human_bytes
from conformance.cases.materialize import storage_bytes
from conformance.check.case_store import load_saved
from conformance.check.goldens import GOLDENS, check_golden
from conformance.check.judge import Judge
from conformance.check.precision import STANDARDS
from conformance.errors import CaseError, UsageError
from conformance.generate.dry_run import shipped_specs
from conformance.report import journal
from conformance.report.files import load_report
from conformance.report.summary import console_line
from conformance.run.config import make_backend, resolve
from conformance.run.launch import launch
from conformance.run.profiles import PROFILES


def add_parsers(sub: Any) -> None:
    run = sub.add_parser("run", help="generate cases from the specs and judge a backend")
    run.add_argument("--backend", default="reference",
                     help="registered name, module:attr or path/to/file.py:attr (default reference)")
    run.add_argument("--product", action="append", default=[], help="product line to test (repeat); "
                     "default: the backend's product, else all four (quick: one)")
    run.add_argument("--op", action="append", default=[], help="operator to test (repeat; default all)")
    run.add_argument("--profile", default="ci", choices=sorted(PROFILES), help="default ci")
    run.add_argument("--seed", type=int, default=0, help="fixed seed: same cases, same findings")
    run.add_argument("--max-examples", type=int, default=None, help="examples per test item")
    run.add_argument("--report-dir", default="reports", help="default reports/")
    run.add_argument("-n", "--numprocesses", default=None, help="parallel workers (pytest-xdist)")
    run.add_argument("-k", dest="keyword", default=None, help="only items matching (pytest -k)")
    run.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failing item")
    run.add_argument("--shard", default=None, help="K/N: run the K-th of N deterministic parts of the "
                     "items (merge the reports with conformance merge)")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    run.add_argument("--isolate", action=argparse.BooleanOptionalAction, default=None,
                     help="call the backend in a worker process that may crash or hang (default: on, "
                     "except for the reference)")
    run.add_argument("--case-timeout", type=float, default=None,
                     help="seconds one isolated call may take (default: quick 10, ci 30, thorough 120)")
    run.add_argument("--waivers", default=None, help="YAML file of known, accepted non-conformances: "
                     "waived findings are reported but do not fail the run")
    run.add_argument("--precision", default="strict", choices=STANDARDS,
                     help="the precision standard deciding numerics findings: strict (the derived "
                     "per-element bound, default) or cann (CANN's MERE/MARE thresholds; the bound's "
                     "figures are still reported)")
    run.add_argument("--golden", default=None, choices=GOLDENS,
                     help="what judges numerics of operators whose spec names no reference function "
                     "(a drafted spec): torch, the torch backend's mapping of the operator computed in "
                     "float64 (operators it does not map stay 'no reference'); specs with a reference "
                     "keep it")
    run.add_argument("--resume", action="store_true", help="continue the run in --report-dir (killed "
                     "or stopped): same options, same seed; the items it finished are not run again")
    run.set_defaults(func=run_command)
    replay = sub.add_parser("replay", help="rerun a saved case: FIXED or PASSES (exit 0), STILL FAILING "
                            "or FAIL (1), NOT APPLICABLE on its product (3)")
    replay.add_argument("case", help="a case file written by a run (reports/cases/*.yaml)")
    replay.add_argument("--backend", default="reference", help="backend spec (default reference)")
    replay.add_argument("--product", default=None, help="override the case's product")
    replay.add_argument("--precision", default="strict", choices=STANDARDS,
                        help="the precision standard (as the run that saved the case)")
    replay.add_argument("--golden", default=None, choices=GOLDENS,
                        help="what judges numerics where the spec has no reference (as the run)")
    replay.add_argument("--isolate", action=argparse.BooleanOptionalAction, default=None,
                        help="call the backend in a worker process (default: on, except the reference)")
    replay.set_defaults(func=replay_command)


def run_command(args: argparse.Namespace) -> int:
    rc = launch(args)  # usage errors exit 2 there, before pytest starts
    report_path = Path(args.report_dir) / "report.json"
    # 2 is also pytest's exit code for a stop (Ctrl-C, or -x under xdist): its report is written
    report = load_report(report_path) if report_path.is_file() and rc not in (3, 4) else None
    if report is None or report.get("started") != journal.read_meta(Path(args.report_dir)).get("started"):
        raise UsageError(f"the run did not complete (pytest exit code {int(rc)})")
    if report["outcome"] == "empty":  # a shard of a non-empty selection (launch refuses others)
        print(f"conformance: empty — shard {args.shard} holds no item of this selection; "
              f"reports in {report_path.parent}")
        return 0
    for f in report["findings"]:
        if "waived" in f:
            print(f"WAIVED {f['kind']} {f['clause']} [{f['api']} on {f['product']}]: "
                  f"{f['waived']['reason']} (until {f['waived']['expires']})")
            continue
        print(f"FAIL {f['kind']} {f['clause']} [{f['api']} on {f['product']}]: {f['message']}")
        print(f"  replay: {f['replay']}")
    for err in report["errors"]:
        print(f"ERROR {err['item']}: {err['error']}", file=sys.stderr)
    print(f"{console_line(report)}; reports in {report_path.parent}")
    for w in report.get("waivers", {}).get("expired", []):
        print(f"EXPIRED WAIVER {w.get('source', '')}: {w.get('clause')} (expired {w.get('expires')})")
    for w in report.get("waivers", {}).get("stale", []):
        print(f"STALE WAIVER {w.get('source', '')}: {w.get('clause')} matched nothing")
    if report["errors"]:
        return 2
    return 0 if report["outcome"] == "conformant" else 1


def replay_command(args: argparse.Namespace) -> int:
    specs = shipped_specs()
    drawn, recorded = load_saved(Path(args.case), specs, args.product)
    if drawn.case.product is None:
        raise UsageError(f"{args.case}: the case names no product; pass --product")
    check_fits(drawn.case, specs, file=args.case)  # before a worker starts or a byte is allocated
    check_golden(args.golden)
    cfg, _ = resolve(specs, args.backend, [drawn.case.product], [drawn.case.api], isolate=args.isolate)
    backend = make_backend(cfg, drawn.case.product)
    try:
        verdict = Judge(backend, specs, drawn.case.product, args.precision, args.golden).judge(drawn)
    except MemoryError:  # the tensors fit, but not with the judge's copies (snapshots, goldens)
        raise CaseError(f"ran out of memory judging the case (its tensors alone need "
                        f"{human_bytes(storage_bytes(drawn.case, specs))})", file=args.case) from None
    finally:
        getattr(backend, "close", lambda: None)()
    if verdict.expectation.expected == "not-applicable":
        print(f"NOT APPLICABLE: {verdict.expectation.reason} (nothing was tested)")
        return NOT_APPLICABLE
    key = (recorded.get("clause"), recorded.get("kind"))
    same = [f for f in verdict.findings if (f.clause, f.kind) == key]
    if same:
        print(f"STILL FAILING: {same[0].kind} {same[0].clause}: {same[0].message}")
        return 1
    if recorded:
        print(f"FIXED: {key[1]} {key[0]} no longer fails (was: {recorded.get('message', '')})")
    elif not verdict.findings:
        print("PASSES (no saved finding): every check of this case held")
    for f in verdict.findings:
        print(f"FAIL {f.kind} {f.clause}: {f.message}")
    return 1 if verdict.findings else 0


#: replay's exit code when the case's operator is not supported on its product: nothing was tested.
NOT_APPLICABLE = 3

"""The round trip: each shipped operator's page drafted at a revision of the vendor's docs and
compared, by meaning, with the hand-written spec (spec/compare.py in round-trip mode).

Per operator: the facts compared, the differences per group, how many are put down to the hand spec
being older than the page ("older") or to one side misreading the page ("misreads", the hand spec
and the page being of the same date), and the share of facts that agree; then every "misreads"
difference of the operators whose hand spec encodes the very revision drafted (to judge by hand).

Run from the repository root:
    PYTHONPATH=. python benchmarks/bench_roundtrip.py [--ops-nn DIR] [--ops-math DIR] [--rev HEAD]
        [--out DIR] [--json FILE]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.cli.main import main
from conformance.cli.spec_compare import read_side, verdict
from conformance.draft.origin import repo_name
from conformance.spec.compare import ENTRY_GROUPS, Entry, OperatorDiff, compare
from conformance.spec.loader import specs_dir
from conformance.spec.model import OperatorSpec

MIRRORS = Path("/work/.mirror")
OLDER = "hand spec is older"


@dataclass
class Trip:
    hand: OperatorSpec
    draft: OperatorSpec | None
    diff: OperatorDiff | None
    said: str  # the round-trip verdict of every difference of this operator
    # the hand spec older than the page: the diff with the page drafted at the hand's own revision
    at_hand: OperatorDiff | None = None

    @property
    def differing(self) -> set[str]:
        """The facts that differ (an outcome change is a difference of its fact)."""
        return {e.key.removeprefix("code ") for e in self.diff.meaning} if self.diff else set()

    @property
    def same_revision(self) -> bool:
        h, d = self.hand.doc_version, self.draft.doc_version if self.draft else None
        return bool(h and d and h.revision and h.revision == d.revision)


def _has(checkout: Path, rev: str, page: str) -> bool:
    return subprocess.run(["git", "-C", str(checkout), "cat-file", "-e", f"{rev}:{page}"],
                          capture_output=True, check=False).returncode == 0


def checkout_of(spec: OperatorSpec, checkouts: dict[str, Path], rev: str) -> Path | None:
    """The checkout holding the spec's page: the one documents.upstream names, else any that has it."""
    page = spec.doc_version.page if spec.doc_version else None
    if not page:
        return None
    upstream = spec.documents.get("upstream", "")
    named = [c for name, c in checkouts.items() if name in upstream]
    return next((c for c in [*named, *checkouts.values()] if _has(c, rev, page)), None)


def draft_pages(checkout: Path, rev: str, pages: list[str], out: Path) -> dict[str, OperatorSpec]:
    """``conformance draft --rev REV --checkout CHECKOUT PAGES -o OUT``, read back as a spec pack."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        status = main(["draft", "--rev", rev, "--checkout", str(checkout), "-o", str(out), *pages])
    if status:
        print(f"  draft {checkout}: exit {status}: {err.getvalue().strip()}")
    return read_side(str(out), "draft").specs if any(out.glob("aclnn*.yaml")) else {}


def _older(t: Trip) -> bool:
    return t.said.startswith(OLDER)


def _at_hand_revision(t: Trip, checkout: Path, out: Path) -> None:
    """Draft the page again as of the revision the hand spec encodes: what still differs there is a
    misreading; what differs at the later revision only is a change of the documents."""
    version = t.hand.doc_version
    if t.diff is None or not _older(t) or not (version and version.revision):
        return
    drafts = draft_pages(checkout, version.revision, [version.page], out / f"{t.hand.api}-at-hand")
    if t.hand.api in drafts:
        t.at_hand = compare(t.hand, drafts[t.hand.api])


def _keyed(e: Entry) -> tuple[Any, ...]:
    return e.change, e.key, e.old, e.new


def changed_since(t: Trip) -> list[Entry]:
    """The differences at the later revision that drafting the hand spec's revision does not show."""
    if t.diff is None or t.at_hand is None:
        return []
    there = {_keyed(e) for e in t.at_hand.meaning}
    return [e for e in t.diff.meaning if _keyed(e) not in there]


def round_trips(checkouts: dict[str, Path], rev: str, out: Path) -> list[Trip]:
    hand = read_side(str(specs_dir()), "hand").specs
    by_checkout: dict[Path, list[OperatorSpec]] = {}
    for spec in hand.values():
        checkout = checkout_of(spec, checkouts, rev)
        if checkout is None:
            print(f"  {spec.api}: its page is in none of the checkouts at {rev}")
            continue
        by_checkout.setdefault(checkout, []).append(spec)
    trips = []
    for checkout, specs in by_checkout.items():
        drafts = draft_pages(checkout, rev, [s.doc_version.page for s in specs],
                             out / repo_name(checkout).replace("/", "+"))
        for spec in specs:
            d = drafts.get(spec.api)
            trip = Trip(spec, d, compare(spec, d) if d else None,
                        verdict(spec.doc_version, d.doc_version if d else None))
            _at_hand_revision(trip, checkout, out)
            trips.append(trip)
    return sorted(trips, key=lambda t: t.hand.api)


def _groups(diff: OperatorDiff | None) -> dict[str, int]:
    entries = diff.meaning if diff else ()
    return {g: sum(e.group == g for e in entries) for g in ENTRY_GROUPS}


def table(trips: list[Trip]) -> str:
    heads = ["operator", "facts", "agree", *ENTRY_GROUPS, "older", "misreads"]
    rows, total = [], {"facts": 0, "agree": 0, "older": 0, "misreads": 0, **dict.fromkeys(ENTRY_GROUPS, 0)}
    for t in trips:
        if t.diff is None:
            rows.append([t.hand.api, "not drafted"])
            continue
        n = len(t.diff.meaning)
        row = {"facts": t.diff.facts, "agree": t.diff.facts - len(t.differing), **_groups(t.diff),
               "older": n if t.said.startswith(OLDER) else 0,
               "misreads": 0 if t.said.startswith(OLDER) else n}
        for k, v in row.items():
            total[k] += v
        rows.append([t.hand.api, *(str(row[h]) for h in heads[1:])])
    rows.append(["total", *(str(total[h]) for h in heads[1:])])
    widths = [max(len(r[i]) if i < len(r) else 0 for r in [heads, *rows]) for i in range(len(heads))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in [heads, *rows]]
    share = 100 * total["agree"] / total["facts"] if total["facts"] else 0.0
    return "\n".join(lines) + f"\nfacts that agree: {total['agree']}/{total['facts']} ({share:.1f}%)"


def _shown(e: Entry) -> str:
    old = ", ".join(e.old) if e.old else "none"
    new = ", ".join(e.new) if e.new else "none"
    codes = f" [{e.old_code} -> {e.new_code}]" if e.group != "codes" and e.old_code != e.new_code else ""
    sources = "; ".join(f"{s} {', '.join(ids)}" for s, ids in (("hand", e.old_clauses),
                                                                ("draft", e.new_clauses)) if ids)
    return f"{e.change} {e.key}: {old} -> {new}{codes}" + (f" ({sources})" if sources else "")


def misreads(trips: list[Trip]) -> list[str]:
    """Every difference with the page drafted at the very revision the hand spec encodes."""
    lines = []
    for t in trips:
        if t.diff and t.same_revision and t.diff.meaning:
            lines.append(f"{t.hand.api} (hand and draft both at {t.hand.doc_version.revision[:12]}):")
            lines += [f"  {_shown(e)}" for e in t.diff.meaning]
        elif t.at_hand is not None and t.at_hand.meaning:
            lines.append(f"{t.hand.api} (drafted again at the hand's {t.hand.doc_version.revision[:12]}):")
            lines += [f"  {_shown(e)}" for e in t.at_hand.meaning]
    return lines


def older(trips: list[Trip]) -> list[str]:
    """For each hand spec older than the page: how many differences the documents' change explains."""
    lines = []
    for t in trips:
        if t.diff is None or not _older(t):
            continue
        head = f"{t.hand.api}: {len(t.diff.meaning)} difference(s) with the page at its later revision"
        if t.at_hand is None:
            lines.append(f"{head}; the hand's revision could not be drafted")
            continue
        since = changed_since(t)
        lines.append(f"{head}: {len(since)} gone at the hand's revision "
                     f"{t.hand.doc_version.revision[:12]} (the documents changed), "
                     f"{len(t.at_hand.meaning)} there (misreads)")
        lines += [f"  changed since: {_shown(e)}" for e in since]
    return lines


def to_json(trips: list[Trip]) -> dict[str, Any]:
    return {"operators": [{
        "api": t.hand.api, "hand_version": t.hand.doc_version.to_json() if t.hand.doc_version else None,
        "draft_version": t.draft.doc_version.to_json() if t.draft and t.draft.doc_version else None,
        "verdict": t.said, "facts": t.diff.facts if t.diff else 0,
        "agree": t.diff.facts - len(t.differing) if t.diff else 0, "groups": _groups(t.diff),
        "meaning": [e.to_json() for e in t.diff.meaning] if t.diff else [],
        "at_hand_revision": [e.to_json() for e in t.at_hand.meaning] if t.at_hand else None,
        "changed_since": [e.to_json() for e in changed_since(t)]} for t in trips]}


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops-nn", type=Path, default=MIRRORS / "hicann+ops-nn" / "repo")
    parser.add_argument("--ops-math", type=Path, default=MIRRORS / "hicann+ops-math" / "repo")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--out", type=Path, help="keep the drafts here (default: a temporary dir)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-roundtrip-"))
    trips = round_trips({"ops-nn": args.ops_nn, "ops-math": args.ops_math}, args.rev, out)
    print(table(trips))
    print(f"verdicts: {OLDER} when the hand spec's doc_version date is before the page's at {args.rev}, "
          "else misreads")
    print("\n".join(["", *older(trips)]))
    found = misreads(trips)
    if found:
        print("\n'misreads': the differences where hand spec and draft encode the same revision:")
        print("\n".join(found))
    if args.json:
        args.json.write_text(json.dumps(to_json(trips), indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    print(f"drafts in {out}")


if __name__ == "__main__":
    main_()

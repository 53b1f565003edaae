"""``conformance draft``: a spec per documentation page, every sentence it could not read kept as a
review clause."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.draft import origin
from conformance.draft.emit import DraftedSpec, draft_spec
from conformance.draft.facts import NotOperatorPage, PageError
from conformance.draft.pack import check_output_dir, write_pack, write_stats
from conformance.draft.reading import page_apis, read_page
from conformance.draft.sources import find_pages, named_at_revision, page_at_revision, pages_at_revision
from conformance.draft.stats import page_stats, render, stats_document
from conformance.errors import UsageError
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

STATS_FILE = "draft-stats.json"
_EPILOG = ("One spec per operator (a page documenting several, aclnnX&aclnnInplaceX, gives one "
           "each): a later page of an operator already drafted (an experimental/ copy) is skipped "
           "with one line on stderr, as is a page documenting no two-phase operator (a host "
           "helper such as aclnnCalculateMatmulWeightSize). Exit status: 0 every operator "
           "drafted; 1 some page could not be read or drafted (one line each on stderr, the "
           "others are written); 2 a bad command line or output directory.")


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("draft", help="draft a spec from each aclnn documentation page (review "
                       "clauses quote what was not read mechanically)", epilog=_EPILOG)
    p.add_argument("pages", nargs="*", metavar="PAGE_OR_DIR", help="a page (.md), or a directory "
                   "searched for docs/aclnn*.md; with --rev: pages or directories inside the "
                   "checkout (none: every docs/aclnn*.md at that revision)")
    p.add_argument("-o", "--output", default="drafts", metavar="DIR", help="where the drafts go "
                   "(default ./drafts); a directory holding files no draft wrote is refused")
    p.add_argument("--stats", nargs="?", const="", metavar="FILE", help="print a table of what was "
                   f"read and write it as JSON to FILE (default DIR/{STATS_FILE})")
    p.add_argument("--rev", help="draft the pages as of this revision of --checkout")
    p.add_argument("--checkout", metavar="DIR", help="a docs git checkout (work tree or bare "
                   "repository), with --rev")
    p.set_defaults(func=draft_command)


def draft_command(args: argparse.Namespace) -> int:
    if (args.rev is None) != (args.checkout is None):
        raise UsageError("--rev and --checkout go together (a revision of a checkout)")
    if args.rev is None and not args.pages:
        raise UsageError("give a page or a directory of pages (or --rev REV --checkout DIR)")
    if args.stats and not args.stats.endswith(".json"):  # "--stats page.md ..." took a page as FILE
        raise UsageError(f"--stats FILE must name a .json file, not {args.stats!r} (a page given "
                         "right after --stats is read as its FILE: put --stats after the pages)")
    out = Path(args.output)
    check_output_dir(out)
    vocab = load_vocabulary(specs_dir() / VOCABULARY_FILE)
    run = _Drafting()
    for label, text, source in _pages(args):
        run.page(label, text, source, vocab)
    run.settle()
    drafted, failures, skipped = run.drafted, run.failures, run.skipped
    write_pack(out, list(drafted.values()))
    reviews = sum(d.reviews for d in drafted.values())
    found = len(drafted) + len(failures) + len(skipped)
    print(f"conformance: drafted {len(drafted)} of {found} operator(s) into {out} ({reviews} review "
          "clause(s) to read)" + (f"; {len(skipped)} skipped (an operator drafted from another "
          "page)" if skipped else "") + (f"; {len(run.helpers)} page(s) documenting no operator"
                                         if run.helpers else "")
          + (f"; {len(failures)} failed" if failures else ""))
    if args.stats is not None:
        doc = stats_document([page_stats(d) for d in drafted.values()], failures, skipped,
                             run.helpers, run.found)
        print(render(doc))
        write_stats(Path(args.stats) if args.stats else out / STATS_FILE, doc)
    return 1 if failures else 0


class _Drafting:
    """The drafts of every operator of every page, one per operator (the page outside
    experimental/ wins), the pages that failed, and the pages that document no operator."""

    def __init__(self) -> None:
        self.drafted: dict[str, DraftedSpec] = {}
        self.failures: list[dict[str, str]] = []
        self.skipped: list[str] = []
        self.helpers: list[dict[str, str]] = []
        self.found = 0  # pages


    def page(self, label: str, text: str, source: origin.Origin, vocab: Any) -> None:
        self.found += 1
        try:
            apis = page_apis(text, label)
        except NotOperatorPage as exc:
            print(f"conformance: draft: {label}: not an operator page: it {exc.reason}",
                  file=sys.stderr)
            self.helpers.append({"page": label, "functions": ", ".join(exc.functions)})
            return
        except PageError as exc:
            self.failures.append(_failed(label, exc.part, exc.reason))
            return
        for api in apis:
            self.operator(label, text, source, vocab, api)

    def operator(self, label: str, text: str, source: origin.Origin, vocab: Any, api: str) -> None:
        try:
            facts = read_page(text, label, vocab, api)
            if source.revision:
                facts = replace(facts, revision=source.revision, date=source.date)
            d = draft_spec(replace(facts, page=source.path), vocab, source.document)
        except PageError as exc:
            self.failures.append(_failed(label, exc.part, exc.reason, api))
            return
        except Exception as exc:  # noqa: BLE001 - a bug on one page must not lose the others
            self.failures.append(_failed(label, "page (a drafting error)",
                                         f"{type(exc).__name__}: {exc}", api))
            return
        kept = self.drafted.get(d.api)
        if kept is None:
            self.drafted[d.api] = d
            return
        if _experimental(kept) and not _experimental(d):  # one spec per operator
            self.drafted[d.api], d, kept = d, kept, d
        self.skipped.append(d.draft.facts.page)
        print(f"conformance: draft: {d.draft.facts.page}: skipped, {d.api} is drafted from "
              f"{kept.draft.facts.page}", file=sys.stderr)

    def settle(self) -> None:
        """An experimental/ copy that failed is skipped when its operator is drafted from
        another page (that page is the one drafted either way)."""
        for failure in list(self.failures):
            kept = self.drafted.get(failure.get("api", ""))
            if kept is not None and "experimental/" in failure["page"]:
                self.failures.remove(failure)
                self.skipped.append(failure["page"])
                print(f"conformance: draft: {failure['page']}: skipped (it could not be read: "
                      f"{failure['reason']}), {kept.api} is drafted from {kept.draft.facts.page}",
                      file=sys.stderr)
        for failure in self.failures:
            print(f"conformance: draft: {failure['page']}: cannot read the {failure['part']}: "
                  f"{failure['reason']}", file=sys.stderr)


def _experimental(d: DraftedSpec) -> bool:
    return "experimental/" in d.draft.facts.page


def _failed(page: str, part: str, reason: str, api: str | None = None) -> dict[str, str]:
    """One failure (printed once every page is read); ``api``: the operator it was read for."""
    return {"page": page, "part": part, "reason": reason} | ({"api": api} if api else {})


def _pages(args: argparse.Namespace) -> Iterator[tuple[str, str, origin.Origin]]:
    """(label, text, origin) of each page the command line names."""
    if args.rev is not None:
        checkout = Path(args.checkout)
        named = [rel for given in args.pages for rel in named_at_revision(checkout, given, args.rev)]
        for rel in named if args.pages else pages_at_revision(checkout, args.rev):
            text, sha, date = page_at_revision(checkout, rel, args.rev)
            yield rel, text, replace(origin.in_checkout(checkout, rel), revision=sha, date=date)
        return
    for given in args.pages:
        for page in find_pages(Path(given)):
            try:
                text = page.read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise UsageError(f"cannot read: {exc.strerror or exc}", file=str(page)) from None
            yield str(page), text, origin.of_file(page)

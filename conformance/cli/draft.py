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
from conformance.draft.facts import PageError
from conformance.draft.pack import check_output_dir, write_pack, write_stats
from conformance.draft.reading import read_page
from conformance.draft.sources import find_pages, page_at_revision, pages_at_revision
from conformance.draft.stats import page_stats, render, stats_document
from conformance.errors import UsageError
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

STATS_FILE = "draft-stats.json"
_EPILOG = ("One spec per operator: a later page of an operator already drafted (an experimental/ "
           "copy) is skipped with one line on stderr. Exit status: 0 every page drafted; 1 some "
           "page could not be read or drafted (one line each on stderr, the others are written); "
           "2 a bad command line or output directory.")


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("draft", help="draft a spec from each aclnn documentation page (review "
                       "clauses quote what was not read mechanically)", epilog=_EPILOG)
    p.add_argument("pages", nargs="*", metavar="PAGE_OR_DIR", help="a page (.md), or a directory "
                   "searched for docs/aclnn*.md; with --rev: paths inside the checkout (none: every "
                   "docs/aclnn*.md at that revision)")
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
    out = Path(args.output)
    check_output_dir(out)
    vocab = load_vocabulary(specs_dir() / VOCABULARY_FILE)
    drafted: dict[str, DraftedSpec] = {}
    failures: list[dict[str, str]] = []
    skipped: list[str] = []
    for label, text, source in _pages(args):
        try:
            facts = read_page(text, label, vocab)
            if source.revision:
                facts = replace(facts, revision=source.revision, date=source.date)
            d = draft_spec(replace(facts, page=source.path), vocab, source.document)
        except PageError as exc:
            failures.append(_failed(label, exc.part, exc.reason))
            continue
        except Exception as exc:  # noqa: BLE001 - a bug on one page must not lose the others
            failures.append(_failed(label, "page (a drafting error)", f"{type(exc).__name__}: {exc}"))
            continue
        kept = drafted.get(d.api)
        if kept is not None:  # one spec per operator: the page outside experimental/ wins
            if _experimental(kept) and not _experimental(d):
                drafted[d.api], d, kept = d, kept, d
            skipped.append(d.draft.facts.page)
            print(f"conformance: draft: {d.draft.facts.page}: skipped, {d.api} is drafted from "
                  f"{kept.draft.facts.page}", file=sys.stderr)
            continue
        drafted[d.api] = d
    write_pack(out, list(drafted.values()))
    reviews = sum(d.reviews for d in drafted.values())
    found = len(drafted) + len(failures) + len(skipped)
    print(f"conformance: drafted {len(drafted)} of {found} page(s) into {out} ({reviews} review "
          "clause(s) to read)" + (f"; {len(skipped)} skipped (an operator drafted from another "
          "page)" if skipped else "") + (f"; {len(failures)} failed" if failures else ""))
    if args.stats is not None:
        doc = stats_document([page_stats(d) for d in drafted.values()], failures, skipped)
        print(render(doc))
        write_stats(Path(args.stats) if args.stats else out / STATS_FILE, doc)
    return 1 if failures else 0


def _experimental(d: DraftedSpec) -> bool:
    return "experimental/" in d.draft.facts.page


def _failed(page: str, part: str, reason: str) -> dict[str, str]:
    print(f"conformance: draft: {page}: cannot read the {part}: {reason}", file=sys.stderr)
    return {"page": page, "part": part, "reason": reason}


def _pages(args: argparse.Namespace) -> Iterator[tuple[str, str, origin.Origin]]:
    """(label, text, origin) of each page the command line names."""
    if args.rev is not None:
        checkout = Path(args.checkout)
        for rel in args.pages or pages_at_revision(checkout, args.rev):
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

"""``conformance specs --compare OLD NEW [--round-trip] [--json]``: two specs (or two directories of
specs, operators paired by api) compared by meaning and by clause id (spec/compare.py).

With ``--round-trip`` OLD is the hand-written spec and NEW the draft of the same page: every
meaning difference says which side is to blame as far as the document versions tell — the hand
spec encodes an older version than the draft's page (the documents may have changed since), or
not (one of them misreads the page).
"""
from __future__ import annotations

import argparse
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.errors import SpecError, UsageError
from conformance.spec.compare import ENTRY_GROUPS, Entry, OperatorDiff, SetDiff, compare_sets
from conformance.spec.loader import VOCABULARY_FILE, read_operator, vocabulary_for
from conformance.spec.model import DocVersion, OperatorSpec

_TITLES = {"dtypes": "dtypes per product", "codes": "codes (outcome on violation)"}
_SETS = ("dtypes", "formats", "values", "relations")  # groups whose values are sets: say what moved


@dataclass(frozen=True)
class Side:
    label: str  # OLD, NEW, hand, draft
    path: str
    specs: dict[str, OperatorSpec]

    def version(self, api: str) -> DocVersion | None:
        return self.specs[api].doc_version

    def header(self) -> str:
        versions = {describe_version(s.doc_version) for s in self.specs.values()}
        said = (versions.pop() if len(versions) == 1
                else "several document versions (each shown with its operator's differences)")
        return f"{self.label}: {self.path} ({len(self.specs)} operator(s)): {said}"


def describe_version(v: DocVersion | None) -> str:
    return v.describe() if v is not None else "no doc_version"


def verdict(hand: DocVersion | None, draft: DocVersion | None) -> str:
    """Which side a round-trip difference is on, as far as the two document dates tell."""
    hand_date, draft_date = (v.date if v is not None else None for v in (hand, draft))
    if hand_date is None or draft_date is None:
        return "document dates unknown: documents may have changed, or one of them misreads the page"
    if str(hand_date) < str(draft_date):
        return "hand spec is older: documents may have changed"
    return "one of them misreads the page"


def read_side(text: str, label: str, api: str | None = None) -> Side:
    """A spec file, or a directory of them: a pack whose vocabulary.yaml (beside the file) may add
    product lines to the shipped vocabulary, as a draft's does."""
    path = Path(text)
    if path.is_dir():
        files = sorted(p for p in path.glob("*.yaml") if p.name != VOCABULARY_FILE)
        if not files:
            raise UsageError(f"--compare {label}: no spec files (*.yaml) in this directory", file=text)
    elif path.is_file():
        files = [path]
    else:
        raise UsageError(f"--compare {label}: no such spec file or directory", file=text)
    vocab, _ = vocabulary_for((path if path.is_dir() else path.parent,))  # what its pack adds
    specs: dict[str, OperatorSpec] = {}
    for f in files:
        spec = read_operator(f, vocab)
        if spec.api in specs:
            raise SpecError(f"operator {spec.api} is defined twice (also in {specs[spec.api].file})",
                            file=str(f))
        specs[spec.api] = spec
    if api is not None:
        specs = {k: v for k, v in specs.items() if k.lower() in (api.lower(), "aclnn" + api.lower())}
    return Side(label, text, specs)


def cmd_compare(args: argparse.Namespace) -> int:
    labels = ("hand", "draft") if args.round_trip else ("OLD", "NEW")
    old, new = (read_side(p, label, args.api) for p, label in zip(args.compare, labels, strict=True))
    if args.api and not (old.specs or new.specs):
        raise UsageError(f"--api {args.api}: on neither side of --compare")
    diff = compare_sets(old.specs, new.specs)
    print(json.dumps(to_json(diff, old, new, args.round_trip), indent=2) if args.json
          else render(diff, old, new, args.round_trip))
    return 0


def to_json(diff: SetDiff, old: Side, new: Side, round_trip: bool) -> dict[str, Any]:
    ops = []
    for d in diff.operators:
        data = d.to_json() | {f"{side}_version": v.to_json() if v is not None else None
                              for side, v in (("old", old.version(d.api)), ("new", new.version(d.api)))}
        if round_trip:
            said = verdict(old.version(d.api), new.version(d.api))
            data["verdict"] = said
            for e in data["meaning"]:
                e["verdict"] = said
        ops.append(data)
    return {"old": _side_json(old), "new": _side_json(new), "round_trip": round_trip,
            "only_old": list(diff.only_old), "only_new": list(diff.only_new), "operators": ops}


def _side_json(side: Side) -> dict[str, Any]:
    return {"path": side.path, "operators": len(side.specs), "label": side.label,
            "doc_versions": {api: s.doc_version.to_json() if s.doc_version is not None else None
                             for api, s in side.specs.items()}}


def render(diff: SetDiff, old: Side, new: Side, round_trip: bool) -> str:
    lines = [old.header(), new.header()]
    for side, only in ((old, diff.only_old), (new, diff.only_new)):
        if only:
            lines.append(f"only in {side.label}: {', '.join(only)}")
    for d in diff.operators:
        if not d.same:
            lines += ["", *_render_operator(d, old, new, round_trip)]
    same = [d.api for d in diff.operators if d.same]
    if same:
        lines += ["", textwrap.fill(f"no differences: {', '.join(same)}", 100, subsequent_indent="  ")]
    return "\n".join(lines)


def _render_operator(d: OperatorDiff, old: Side, new: Side, round_trip: bool) -> list[str]:
    versions = [describe_version(s.version(d.api)) for s in (old, new)]
    head = (f"{d.api}: {len(d.meaning)} meaning difference(s) in {d.facts} facts, {len(d.clauses)} "
            f"clause id difference(s) ({old.label} {versions[0]}; {new.label} {versions[1]})")
    said = f"  ({verdict(old.version(d.api), new.version(d.api))})" if round_trip else ""
    lines = [head]
    for group in ENTRY_GROUPS:
        entries = [e for e in d.meaning if e.group == group]
        if entries:
            lines.append(f"  {_TITLES.get(group, group)}:")
            lines += [f"    {_entry(e, old.label, new.label)}{said}" for e in entries]
    lines += _render_ids(d, old.label, new.label)
    return lines


def _entry(e: Entry, old: str, new: str) -> str:
    shown = {"added": f"+ {e.key}: {_value(e.new, e.new_code)}",
             "removed": f"- {e.key}: {_value(e.old, e.old_code)}",
             "changed": f"~ {e.key}: {_value(e.old)} -> {_value(e.new)}"}[e.change]
    if e.change == "changed" and e.group in _SETS:
        gone, came = sorted(set(e.old or ()) - set(e.new or ())), sorted(set(e.new or ()) - set(e.old or ()))
        moved = [*(f"-{v}" for v in gone), *(f"+{v}" for v in came)]
        shown += f" [{' '.join(moved)}]" if moved else ""
    sources = [f"{label} {', '.join(ids)}" for label, ids in ((old, e.old_clauses), (new, e.new_clauses))
               if ids]
    return shown + (f" ({'; '.join(sources)})" if sources else "")


def _value(value: tuple[str, ...] | None, code: str | None = None) -> str:
    text = ", ".join(value) if value else "none"
    return f"{text} [{code}]" if code else text


def _render_ids(d: OperatorDiff, old: str, new: str) -> list[str]:
    lines = []
    for c in d.clauses:
        if c.change == "renamed":
            changed = f" (changed: {', '.join(c.fields)})" if c.fields else ""
            lines.append(f"    renamed {c.id} -> {c.new_id}{changed}")
        elif c.change == "changed":
            lines.append(f"    changed {c.id}: {', '.join(c.fields)}")
    for change, label in (("removed", old), ("added", new)):
        ids = [c.id for c in d.clauses if c.change == change]
        if ids:
            lines.append(_wrapped(f"only in {label}: {', '.join(ids)}"))
    unjudged = [f"{label} {', '.join(f'{i} ({k})' for i, k in ids)}"
                for label, ids in zip((old, new), d.not_compared, strict=True) if ids]
    if unjudged:
        lines.append(_wrapped(f"not compared by meaning: {'; '.join(unjudged)}"))
    return ["  clauses by id:", *lines] if lines else []


def _wrapped(text: str) -> str:
    return textwrap.fill(text, 100, initial_indent="    ", subsequent_indent="      ",
                         break_on_hyphens=False)

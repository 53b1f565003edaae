"""summary.md: the verdict and why, a per-operator/product table, the findings with their replays,
the waivers and what did not run; short enough to post as a CI comment."""
from __future__ import annotations

from collections import Counter
from typing import Any

from conformance.check.results import split_item_id
from conformance.report.outcome import SEVERITY, UNFINISHED, worst
from conformance.spec.model import describe_doc_version

VERDICTS = {"conformant": "✅ conformant", "nonconformant": "❌ nonconformant",
            "incomplete": "⏸ incomplete", "empty": "∅ empty (nothing was judged)"}
#: The table's columns: (row outcome, heading).
COLUMNS = (("pass", "pass"), ("fail", "fail"), ("waived", "waived"), ("incomplete", "incomplete"),
           ("insufficient", "insufficient evidence"), ("no-reference", "no reference"),
           ("unspecified", "unspecified"))


def verdict_notes(report: dict[str, Any]) -> list[str]:
    """What the verdict does not cover: a stop, items not run or unfinished, thin evidence."""
    stats, why = report["stats"], []
    if report.get("stopped"):
        why.append(f"stopped early: {report['stopped']}")
    if stats.get("items_not_run"):
        why.append(f"{stats['items_not_run']} of {stats['items']} items did not run")
    if stats.get("items_incomplete"):
        why.append(f"{stats['items_incomplete']} items did not finish")
    if stats.get("items_not_run") or stats.get("items_incomplete"):
        why[-1] += ": `conformance run --resume`"
    not_run = sorted({r["api"] for r in report["results"] if r["outcome"] == "not-run"})
    if not_run:
        why.append(f"{len(not_run)} operator(s) the backend does not implement were not run: "
                   f"{', '.join(not_run)}")
    if stats.get("items_insufficient"):
        why.append(f"{stats['items_insufficient']} items judged too few cases (insufficient evidence)")
    unjudged = sorted({r["api"] for r in report["results"] if r["outcome"] == "no-reference"})
    if unjudged:
        why.append(f"numerics of {len(unjudged)} operator(s) not judged, no reference: {', '.join(unjudged)}")
    if report.get("journal_damage"):
        why.append(damage_note(report["journal_damage"]))
    return why


def damage_note(damage: dict[str, Any]) -> str:
    """Which journal lines could not be read, and how many were kept."""
    lines = damage["lines"]
    where = ", ".join(f"{d['file']}:{d['line']}" if d.get("line") else d["file"] for d in lines[:5])
    more = f" and {len(lines) - 5} more" if len(lines) > 5 else ""
    return (f"the journal is damaged: {len(lines)} line(s) could not be read ({where}{more}); "
            f"{damage['kept']} lines were kept")


def verdict(report: dict[str, Any]) -> str:
    """The verdict, with ``verdict_notes`` in parentheses."""
    why = verdict_notes(report)
    text = VERDICTS.get(report["outcome"], report["outcome"])
    return text + (f" ({'; '.join(why)})" if why else "")


def console_line(report: dict[str, Any]) -> str:
    """The run's one-line verdict for a terminal: outcome, what it does not cover, the counts."""
    stats, why = report["stats"], "; ".join(verdict_notes(report)).replace("`", "")
    return (f"conformance: {report['outcome']}{f' ({why})' if why else ''} — {stats['items']} items, "
            f"{stats['cases']} cases, {stats['findings']} finding(s), {stats['cases_per_second']} cases/s")


def summary_markdown(report: dict[str, Any]) -> str:
    """A verdict line, a per-operator/product table, and every finding with its replay."""
    lines = [f"## aclnn conformance: {verdict(report)}", "", _header(report), "", *_table(report)]
    lines += _operators(report)
    lines += _findings(report) + _waivers(report) + _not_run(report) + _item_notes(report)
    for err in report["errors"]:
        lines += ["", f"**Error** in `{err['item']}`: {err['error']}"]
    return "\n".join(lines) + "\n"


def _header(report: dict[str, Any]) -> str:
    stats, spec = report["stats"], report["spec"]
    shard = f" · shard {report['shard']}" if report.get("shard") else ""
    return (f"Backend `{report['backend'].get('name')}` · profile `{report['profile']}` · precision "
            f"`{report.get('precision', 'strict')}` · seed `{report['seed']}` · {stats['cases']} cases in "
            f"{stats['seconds']:.1f} s ({stats['cases_per_second']} cases/s) · spec {spec.get('version')} "
            f"({spec.get('digest')}){shard}")


#: At most this many (operator, product) rows and findings are listed; the rest are counted, so the
#: summary fits a CI comment however many operators a run has (report.html lists everything).
MAX_ROWS = 25


def _table(report: dict[str, Any]) -> list[str]:
    """One row per (operator, product) that needs a look (anything but all pass or not applicable),
    the worst first; the others are counted on one line."""
    groups: dict[tuple[str, str], Counter] = {}
    for row in report["results"]:
        groups.setdefault((row["api"], row["product"]), Counter())[row["outcome"]] += 1
    for item in report.get("items", []):
        parts = split_item_id(item["item"])
        if parts is not None and item["outcome"] == "not-run":
            groups.setdefault(parts[:2], Counter())["items not run"] += 1
    heads = [h for _, h in COLUMNS] + ["not applicable / not run", "items not run"]
    lines = ["| operator | product | " + " | ".join(heads) + " |", "|---|---|" + "---:|" * len(heads)]
    order = sorted(groups, key=lambda k: (SEVERITY.index(worst(groups[k])), k))
    quiet = [k for k in order if set(groups[k]) <= {"pass", "not-applicable"}]
    shown = order if len(order) <= MAX_ROWS else [k for k in order if k not in quiet]
    for api, product in shown[:MAX_ROWS]:
        g = groups[(api, product)]
        whole = "not applicable" if g["not-applicable"] else "not run" if g["not-run"] else ""
        cells = [str(g[o]) for o, _ in COLUMNS] + [whole, str(g["items not run"] or "")]
        lines.append(f"| {api} | {product} | " + " | ".join(cells) + " |")
    rest = [k for k in order if k not in shown[:MAX_ROWS]]
    if rest:
        passing = sum(set(groups[k]) == {"pass"} for k in rest)
        na = sum(set(groups[k]) == {"not-applicable"} for k in rest)
        lines += ["", f"… and {len(rest)} more (operator, product) pairs: {passing} all pass, {na} not "
                      f"applicable, {len(rest) - passing - na} other (see report.html)."]
    return lines


def _operators(report: dict[str, Any]) -> list[str]:
    """Per operator (1.5 reports): the document version its spec encodes, what judged its numerics
    and how many of its sentences need review (listed in report.html, never judged)."""
    said = report.get("operators") or {}
    if not said:
        return []
    lines = ["", "| operator | documents | numerics judged by | clauses needing review |",
             "|---|---|---|---:|"]
    for api, about in list(said.items())[:MAX_ROWS]:
        lines.append(f"| {api} | {_cell(describe_doc_version(about.get('doc_version')))} | "
                     f"{about.get('reference') or 'no reference'} | {len(about.get('review') or [])} |")
    if len(said) > MAX_ROWS:
        lines.append(f"| … | and {len(said) - MAX_ROWS} more operators (report.html) | | |")
    return lines


def _item_notes(report: dict[str, Any]) -> list[str]:
    """What items could not cover (1.6 ``notes``: a conditional clause's disjunct no valid case
    isolated), so a reader knows which success sides went untested."""
    notes = [f"- `{item['item']}`: {note}" for item in report.get("items", [])
             for note in item.get("notes", [])]
    if not notes:
        return []
    more = [f"- … and {len(notes) - MAX_ROWS} more (report.json `items[].notes`)"
            for _ in range(len(notes) > MAX_ROWS)]
    return ["", "**Not covered**:", *notes[:MAX_ROWS], *more]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _findings(report: dict[str, Any]) -> list[str]:
    lines = []
    failing = [f for f in report["findings"] if "waived" not in f]
    waived = [f for f in report["findings"] if "waived" in f]
    if failing:
        lines += ["", "### Findings", "", "| operator | product | clause | kind | message |",
                  "|---|---|---|---|---|"]
        lines += [f"| {f['api']} | {f['product']} | {f['clause']} | {f['kind']} | {_cell(f['message'])} |"
                  for f in failing[:MAX_ROWS]]
        if len(failing) > MAX_ROWS:
            more = len(failing) - MAX_ROWS
            lines.append(f"| … | | | | and {more} more findings (report.html, report.json) |")
        replays = [f["replay"] for f in failing[:MAX_ROWS] if f["replay"]]
        lines += ["", "Replay:", "", "```", *replays, "```"] if replays else []
    if waived:
        lines += ["", "### Waived findings (accepted, they do not fail the run)", "",
                  "| operator | product | clause | kind | reason | until | message |",
                  "|---|---|---|---|---|---|---|"]
        lines += [f"| {f['api']} | {f['product']} | {f['clause']} | {f['kind']} | {_reason(f['waived'])} | "
                  f"{f['waived']['expires']} | {_cell(f['message'])} |" for f in waived]
    return lines


def _reason(waiver: dict[str, Any]) -> str:
    link = waiver.get("link")
    return _cell(waiver["reason"]) + (f" ([link]({link}))" if link else "")


def _waivers(report: dict[str, Any]) -> list[str]:
    """Expired waivers (their findings fail again) and stale ones (they matched nothing)."""
    said = report.get("waivers") or {}
    lines = []
    for key, title in (("expired", "Expired waivers (they waive nothing: renew or fix)"),
                       ("stale", "Stale waivers (they matched no finding: remove them)")):
        if said.get(key):
            lines += ["", f"### {title}", ""]
            lines += [f"- `{w['clause']}`{_scope(w)}: {_cell(w['reason'])} — expires {w['expires']} "
                      f"({w.get('source') or 'waiver file'})" for w in said[key]]
    return lines


def _scope(w: dict[str, Any]) -> str:
    scope = [f"{k} {w[k]}" for k in ("product", "dtype", "kind", "precision") if w.get(k)]
    return f" ({', '.join(scope)})" if scope else ""


def not_run_groups(report: dict[str, Any]) -> dict[tuple[str, str], dict[str, list[str]]]:
    """(api, product) -> subject -> the families of its items that did not run or finish (a
    family that started is marked ``(unfinished)``)."""
    groups: dict[tuple[str, str], dict[str, list[str]]] = {}
    for item in report.get("items", []):
        parts = split_item_id(item["item"])
        if parts is not None and item["outcome"] in UNFINISHED:
            mark = "" if item["outcome"] == "not-run" else " (unfinished)"
            groups.setdefault(parts[:2], {}).setdefault(parts[2], []).append(parts[3] + mark)
    return dict(sorted(groups.items()))


def _not_run(report: dict[str, Any]) -> list[str]:
    groups = not_run_groups(report)
    lines = ["", "### Not run", ""] if groups else []
    for (api, product), subjects in groups.items():
        listed = ", ".join(f"{s} ({', '.join(f)})" for s, f in subjects.items())
        lines.append(f"- {api} on {product}: {sum(map(len, subjects.values()))} items: {listed}")
    return lines

"""Compare two report documents (``report.json``, docs/report-format.md): what regressed, what was fixed.

Rows of ``results`` and ``findings`` are matched by their key (api, product, clause, kind). The diff
is plain JSON-able data; ``render_diff`` turns it into Markdown (a CI job summary or pull-request
comment) or plain text.
"""
from __future__ import annotations

from typing import Any

Key = tuple[str, str, str, str]

#: outcomes a row may regress from
NOT_FAILING = ("pass", "unspecified", "insufficient", "incomplete", "no-reference")


def _key(entry: dict[str, Any]) -> Key:
    return entry["api"], entry["product"], entry["clause"], entry["kind"]


def _key_json(key: Key) -> dict[str, str]:
    return dict(zip(("api", "product", "clause", "kind"), key))


def _run_info(report: dict[str, Any]) -> dict[str, Any]:
    backend = report.get("backend", {})
    return {"backend": backend.get("spec"), "backend_name": backend.get("name"),
            "backend_version": backend.get("version"), "profile": report.get("profile"),
            "seed": report.get("seed"), "shard": report.get("shard"), "spec": dict(report.get("spec", {})),
            "outcome": report.get("outcome"), "started": report.get("started"),
            "cases": report.get("stats", {}).get("cases"), "findings": len(report.get("findings", []))}


def _finding_json(f: dict[str, Any]) -> dict[str, Any]:
    return {"api": f["api"], "product": f["product"], "clause": f["clause"], "kind": f["kind"],
            "message": f["message"], "item": f.get("item"), "replay": f.get("replay")}


def diff_reports(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from ``old`` to ``new``.

    - ``regressions``: rows in old that did not fail (``NOT_FAILING``) and ``fail`` in new;
    - ``fixes``: rows ``fail`` in old and ``pass`` in new;
    - ``changed``: every other change of a row's outcome (e.g. ``fail`` -> ``unspecified``,
      ``pass`` -> ``not-applicable``, anything to or from ``waived``);
    - ``new_findings``: findings of new whose key had no finding in old; ``gone_findings`` the converse;
    - ``only_old`` / ``only_new``: rows whose key is in one report only;
    - ``regressed``: true when there is a regression or a row only in new fails (a newly failing row
      is a regression for CI even if old never checked it).
    Each list is sorted by key (findings keep their report order).
    """
    old_rows = {_key(r): r for r in old.get("results", [])}
    new_rows = {_key(r): r for r in new.get("results", [])}
    new_by_key: dict[Key, list[dict[str, Any]]] = {}
    for f in new.get("findings", []):
        new_by_key.setdefault(_key(f), []).append(f)
    regressions, fixes, changed = [], [], []
    for key in sorted(old_rows.keys() & new_rows.keys()):
        was, now = old_rows[key]["outcome"], new_rows[key]["outcome"]
        if was == now:
            continue
        entry = {**_key_json(key), "old": was, "new": now, "old_failed": old_rows[key]["failed"],
                 "new_failed": new_rows[key]["failed"], "old_cases": old_rows[key]["cases"],
                 "new_cases": new_rows[key]["cases"]}
        if was in NOT_FAILING and now == "fail":
            entry["findings"] = [f["message"] for f in new_by_key.get(key, [])]
            regressions.append(entry)
        elif was == "fail" and now == "pass":
            fixes.append(entry)
        else:
            changed.append(entry)
    old_finding_keys = {_key(f) for f in old.get("findings", [])}
    new_findings = [_finding_json(f) for f in new.get("findings", []) if _key(f) not in old_finding_keys]
    gone_findings = [_finding_json(f) for f in old.get("findings", []) if _key(f) not in new_by_key]
    only_old = [dict(old_rows[k]) for k in sorted(old_rows.keys() - new_rows.keys())]
    only_new = [dict(new_rows[k]) for k in sorted(new_rows.keys() - old_rows.keys())]
    regressed = bool(regressions) or any(r["outcome"] == "fail" for r in only_new)
    return {"old": _run_info(old), "new": _run_info(new), "regressed": regressed,
            "regressions": regressions, "fixes": fixes, "changed": changed,
            "new_findings": new_findings, "gone_findings": gone_findings,
            "only_old": only_old, "only_new": only_new,
            "counts": {"regressions": len(regressions), "fixes": len(fixes), "changed": len(changed),
                       "new_findings": len(new_findings), "gone_findings": len(gone_findings),
                       "only_old": len(only_old), "only_new": len(only_new)}}


def _warnings(d: dict[str, Any]) -> list[str]:
    old, new = d["old"], d["new"]
    out = []
    if old["spec"] != new["spec"]:
        out.append(f"the spec differs: {_spec(old)} -> {_spec(new)}; clauses may have been added, "
                   "removed or changed")
    for field in ("backend", "seed", "profile"):
        if old[field] != new[field]:
            out.append(f"the {field} differs: {old[field]} -> {new[field]}")
    return out


def _spec(info: dict[str, Any]) -> str:
    return f"{info['spec'].get('version')} ({info['spec'].get('digest')})"


def _describe_run(info: dict[str, Any]) -> str:
    version = f" {info['backend_version']}" if info.get("backend_version") else ""
    shard = f", shard {info['shard']}" if info.get("shard") else ""
    return (f"backend {info['backend']}{version}, profile {info['profile']}, seed {info['seed']}{shard}, "
            f"spec {_spec(info)}, {info['outcome']}, {info['cases']} cases, {info['findings']} finding(s)"
            + (f", started {info['started']}" if info.get("started") else ""))


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


_ROW_CHANGES = (("regressions", "Regressions"), ("fixes", "Fixes"), ("changed", "Other outcome changes"))
_FINDINGS = (("new_findings", "New findings"), ("gone_findings", "Gone findings"))
_ONLY = (("only_old", "Rows only in old"), ("only_new", "Rows only in new"))


def render_diff(d: dict[str, Any], fmt: str = "markdown") -> str:
    """The diff as ``markdown`` (headings and tables) or ``text`` (one line per entry)."""
    if fmt == "markdown":
        return _markdown(d)
    if fmt == "text":
        return _text(d)
    raise ValueError(f"unknown format {fmt!r} (markdown or text)")


def _verdict(d: dict[str, Any]) -> str:
    c = d["counts"]
    if d["regressed"]:
        newly = sum(r["outcome"] == "fail" for r in d["only_new"])
        return f"{c['regressions']} regression(s)" + (f", {newly} new failing row(s)" if newly else "")
    return "no regressions"


def _markdown(d: dict[str, Any]) -> str:
    c = d["counts"]
    lines = [f"## aclnn conformance diff: {'❌' if d['regressed'] else '✅'} {_verdict(d)}", "",
             f"- old: {_describe_run(d['old'])}", f"- new: {_describe_run(d['new'])}",
             f"- {c['fixes']} fix(es), {c['changed']} other change(s), {c['new_findings']} new and "
             f"{c['gone_findings']} gone finding(s), {c['only_old']} row(s) only in old, "
             f"{c['only_new']} only in new"]
    lines += [f"- **warning**: {w}" for w in _warnings(d)]
    for name, title in _ROW_CHANGES:
        lines += _section(title, ("old", "new", "failed"), [
            (r["old"], r["new"], f"{r['old_failed']} → {r['new_failed']}") for r in d[name]], d[name])
    for name, title in _FINDINGS:
        lines += _section(title, ("message",), [(_cell(f["message"]),) for f in d[name]], d[name])
    replays = [f["replay"] for f in d["new_findings"] if f.get("replay")]
    if replays:
        lines += ["", "Replay the new findings:", "", "```"] + replays + ["```"]
    for name, title in _ONLY:
        lines += _section(title, ("outcome", "cases"), [(r["outcome"], r["cases"]) for r in d[name]], d[name])
    return "\n".join(lines) + "\n"


def _section(title: str, extra: tuple[str, ...], cells: list[tuple[Any, ...]],
             rows: list[dict[str, Any]]) -> list[str]:
    """A Markdown table keyed by api, product, clause and kind, with ``extra`` columns; none if empty."""
    if not rows:
        return []
    head = ("operator", "product", "clause", "kind", *extra)
    out = ["", f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row, more in zip(rows, cells):
        values = (row["api"], row["product"], row["clause"], row["kind"], *more)
        out.append("| " + " | ".join(str(v) for v in values) + " |")
    return out


def _text(d: dict[str, Any]) -> str:
    lines = [f"conformance diff: {_verdict(d)}", f"old: {_describe_run(d['old'])}",
             f"new: {_describe_run(d['new'])}"]
    lines += [f"warning: {w}" for w in _warnings(d)]
    labels = {"regressions": "REGRESSED", "fixes": "FIXED", "changed": "CHANGED"}
    for name, _ in _ROW_CHANGES:
        lines += [f"{labels[name]} {r['api']}/{r['product']} {r['clause']}:{r['kind']}: {r['old']} -> "
                  f"{r['new']} (failed {r['old_failed']} -> {r['new_failed']})" for r in d[name]]
    for name, label in (("new_findings", "NEW FINDING"), ("gone_findings", "GONE FINDING")):
        for f in d[name]:
            lines.append(f"{label} {f['api']}/{f['product']} {f['clause']}:{f['kind']}: {f['message']}")
            if name == "new_findings" and f.get("replay"):
                lines.append(f"  replay: {f['replay']}")
    for name, label in (("only_old", "ONLY IN OLD"), ("only_new", "ONLY IN NEW")):
        lines += [f"{label} {r['api']}/{r['product']} {r['clause']}:{r['kind']}: {r['outcome']} "
                  f"({r['cases']} cases)" for r in d[name]]
    return "\n".join(lines) + "\n"

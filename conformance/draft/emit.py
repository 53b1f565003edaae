"""A drafted spec: the dict in the suite's format, its YAML text (with a header saying it is a draft
and how much a person must review), and the vocabulary additions a pack of drafts needs."""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import yaml

from conformance.draft.breakable import pack_vocabulary, unbreakable
from conformance.draft.clauses import Draft, draft_clauses, recount
from conformance.draft.context import IN_PLACE, reading, source
from conformance.draft.dtype_ties import dtype_together
from conformance.draft.facts import PageFacts, Sentence, Where
from conformance.draft.generate_section import generate_section
from conformance.spec.vocabulary import Vocabulary


@dataclass
class DraftedSpec:
    api: str
    spec: dict[str, Any]
    text: str
    draft: Draft

    @property
    def reviews(self) -> int:
        return len(self.draft.reviews)


def draft_spec(facts: PageFacts, vocab: Vocabulary, document: str) -> DraftedSpec:
    """The spec of one page; ``document`` names it as "<repo>: <path>" (documents.upstream)."""
    draft = draft_clauses(facts, vocab)
    generate = generate_section(draft.ctx, draft.clauses, draft.review)
    recount(draft)  # (the generate section leaves out clauses it cannot break)
    spec = spec_dict(draft, generate, document)
    text = spec_yaml(spec, draft, document)
    for _ in draft.clauses:  # clauses a run cannot test (breakable.py): out, until none is left
        if not _untestable(draft, text):
            break
        recount(draft)
        spec = spec_dict(draft, generate, document)
        text = spec_yaml(spec, draft, document)
    return DraftedSpec(facts.api, spec, text, draft)


def _untestable(draft: Draft, text: str) -> bool:
    """Leave out what a run cannot test; whether anything was. A clause the drawn valid cases
    break (the draft's shapes cannot honour it) is left for review when it has a code; one no case
    breaks alone (another says the same) goes, unless a clause requires it or it names the first
    tensor's dtypes (the test items), and a conditional one with a code is left for review (or
    outlives the uncoded ones it breaks with: ``_uncoded_first``)."""
    d = DraftedSpec(draft.facts.api, {}, "", draft)
    drawn, lonely = unbreakable(text, draft.facts.api, pack_vocabulary(vocabulary_additions([d])))
    first = draft.ctx.tensors[0]
    kept = {c["id"] for c in draft.clauses if c["kind"] == "dtype_in" and first in c["params"]}
    lonely = [cid for cid in lonely if cid not in kept
              and not any(cid in c.get("requires", []) for c in draft.clauses)]
    lonely = _format_ties_first(draft, lonely)
    gone = set(drawn) | set(_uncoded_first(draft, lonely))
    gone |= {c["id"] for c in draft.clauses if set(c.get("requires", [])) & gone}  # (their requirers)
    gone -= kept
    for c in draft.clauses:  # (a conditional one: its condition may be one no boundary draw meets)
        if c["id"] in gone and (c["id"] in drawn or "_conditional" in c or "only_if" in c
                                or c["kind"] == "same_format") \
                and str(c.get("on_violation")).startswith("ACLNN_"):
            draft.review(Sentence(c["source"]["quote"], _first_where(c, draft)), reading(c))
    draft.clauses = [c for c in draft.clauses if c["id"] not in gone]
    draft.implied += sorted(gone)
    return bool(gone)


def _format_ties_first(draft: Draft, lonely: list[str]) -> list[str]:
    """Where a format_in clause no case breaks alone names a tensor a same_format clause ties
    (breaking a list on one tied tensor breaks the tie, or the other tensors' lists, too), what
    goes first, the next round trying the rest again: a tie no tensor's list lets break (each
    lists one format), then the lists without a code (the tie and a coded list say them), then
    the tie (for review). A tie is never implied by the lists: one that goes is left for review."""
    by = {c["id"]: c for c in draft.clauses}
    ties = [c for c in draft.clauses if c["kind"] == "same_format"]
    lists = [by[cid] for cid in lonely if by[cid]["kind"] == "format_in"
             and any(set(by[cid]["params"]) & set(t["params"]) for t in ties)]
    if not lists:
        return lonely
    choice = [t for t in ties if not any(len(c["formats"]) > 1 and set(c["params"]) & set(t["params"])
                                         for c in draft.clauses if c["kind"] == "format_in")]
    uncoded = [c for c in lists if not str(c.get("on_violation")).startswith("ACLNN_")]
    return [c["id"] for c in choice or uncoded or ties]


def _uncoded_first(draft: Draft, lonely: list[str]) -> list[str]:
    """Where a conditional clause with a code breaks only with clauses without one, those go first
    and the next round tries it again: a usage note "shape与input相同" beside "当outputMask[0]为true，
    gradInput的shape与input的shape不相同" says the same where the condition holds. Not for an
    unconditional coded clause: an uncoded one beside it may be the page allowing more ("一致或满足
    broadcast关系" beside "shape不同" with a code), which keeping the coded one alone would deny."""
    by = {c["id"]: c for c in draft.clauses}
    coded = {cid for cid in lonely if str(by[cid].get("on_violation")).startswith("ACLNN_")}
    if any("_conditional" in by[cid] or "only_if" in by[cid] for cid in coded) and len(coded) < len(lonely):
        return [cid for cid in lonely if cid not in coded]
    return lonely


def _param(p: dict[str, Any]) -> dict[str, Any]:
    """A drafted parameter as the spec says it: an in-place tensor's role is ``inout``."""
    public = {k: v for k, v in p.items() if k != IN_PLACE}
    return {**public, "role": "inout"} if p.get(IN_PLACE) else public


def _first_where(clause: dict[str, Any], draft: Draft) -> Where:
    evidence = clause.get("_evidence") or []
    if evidence:
        return evidence[0].sentence.where
    return draft.facts.params[0].where if draft.facts.params else Where(draft.facts.api, 1)


def spec_dict(draft: Draft, generate: dict[str, Any], document: str) -> dict[str, Any]:
    ctx, facts = draft.ctx, draft.facts
    unsupported = {pid: source([_said(p.label, p.where)]) for pid, p in ctx.unsupported().items()}
    spec: dict[str, Any] = {
        "api": facts.api,
        "summary": _summary(facts),
        "documents": {"upstream": document},
        "doc_version": doc_version(facts),
        "products": list(ctx.products),
    }
    if unsupported:
        spec["unsupported"] = unsupported
    spec["params"] = {name: _param(p) for name, p in ctx.params.items()}
    ties = dtype_together(ctx, draft.reviews)  # (after every review clause is made)
    spec["generate"] = {**generate, "dtype_together": ties} if ties else generate
    spec["constraints"] = [_public(c) for c in draft.constraints]
    return spec


def _summary(facts: PageFacts) -> str:
    """The 接口功能 sentence without its label, else the api."""
    if facts.function is None:
        return facts.api
    return re.sub(r"^\s*(?:接口功能|算子功能|功能)\s*[:：]\s*", "", facts.function.text) or facts.api


def _said(label: str, where: Where) -> Sentence:
    return Sentence(f"{label}：不支持", where)


def doc_version(facts: PageFacts) -> dict[str, str]:
    """The page's revision and date when the reader had them; else the day it was drafted."""
    if facts.revision:
        out = {"revision": facts.revision}
        if facts.date:
            out["date"] = facts.date
        return {**out, "page": facts.page}
    return {"release": "unversioned page", "date": facts.date or dt.date.today().isoformat(),
            "page": facts.page}


_FIRST = ("id", "source", "kind", "params")


def _public(clause: dict[str, Any]) -> dict[str, Any]:
    """The clause as the spec says it: id, source, kind, params first; private keys dropped."""
    ordered = {k: clause[k] for k in _FIRST if k in clause}
    return {**ordered, **{k: v for k, v in clause.items() if k not in ordered and not k.startswith("_")}}


class _Dumper(yaml.SafeDumper):
    """Block style, except short mappings of scalars and lists of scalars (one line each)."""


_SCALARS = (int, float, bool, str)


def _flow(value: Any) -> bool:
    scalars = value.values() if isinstance(value, dict) else value
    return all(isinstance(v, _SCALARS) and len(str(v)) <= 40 for v in scalars)


def _represent_dict(dumper: yaml.SafeDumper, data: dict[Any, Any]) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(),
                                    flow_style=bool(data) and _flow(data) and len(data) <= 6)


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data,
                                     flow_style=all(isinstance(v, (*_SCALARS, list)) for v in data))


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(list, _represent_list)


def spec_yaml(spec: dict[str, Any], draft: Draft, document: str) -> str:
    version = spec["doc_version"]
    at = version["revision"][:12] if "revision" in version else version["release"]
    omitted = draft.ctx.omitted
    lines = [f"# DRAFT of {spec['api']}, written by `conformance draft` from {document} ({at}"
             f"{', ' + version['date'] if 'date' in version else ''}).",
             f"# A person must check it: {len(draft.reviews)} review clause(s) quote what was not read "
             "mechanically (kind: review: listed, never judged).",
             "# There is no reference: numerics are reported 'no reference' (conformance run --golden "
             "torch may stand in)."]
    if omitted:
        lines.append(f"# Not runnable as it is against a library: the spec language cannot pass "
                     f"{', '.join(f'{n} ({t})' for n, t in omitted.items())}.")
    body = yaml.dump(spec, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)
    return "\n".join(lines) + "\n" + body


def vocabulary_additions(drafts: list[DraftedSpec]) -> dict[str, Any]:
    """What a pack of drafts adds to the shipped vocabulary: product lines it lacks (id: a slug of
    the label) and status codes it lacks; {} when nothing."""
    products: dict[str, str] = {}
    codes: dict[str, Counter[int]] = {}
    for d in drafts:
        for pid, label in d.draft.ctx.new_products.items():
            products.setdefault(pid, label)
        for name, code in d.draft.ctx.new_statuses.items():
            codes.setdefault(name, Counter())[code] += 1
    # a status name the pages give different codes (a typo on some page): the most common one
    statuses = {name: counted.most_common(1)[0][0] for name, counted in codes.items()}
    out: dict[str, Any] = {}
    if products:
        out["products"] = [{"id": pid, "doc_names": [label]} for pid, label in products.items()]
    if statuses:
        out["status_codes"] = [{"name": n, "code": c} for n, c in statuses.items()]
    return out

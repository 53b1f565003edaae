"""PageFacts → the constraints of a drafted spec, in the suite's format.

Every error-table sentence is read by a pattern (patterns.py) into evidence: a clause kind, the
parameters it names, its code. The parameter table gives lists and limits (dtypes per product,
formats, ranks, values) and, in usage notes, relations without codes. A clause carries the code of
the rows that speak of it, else ``unspecified``. What no pattern read, and every usage or constraints
sentence that looks like a promise but went into no clause, becomes a ``review`` clause quoting it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.draft import (
    array_ranks,
    attr_clauses,
    attr_shape_ties,
    axis_limits,
    behaviors,
    bit_masks,
    bmm_ties,
    broadcast_into,
    channel_ties,
    conditions,
    count_ties,
    dim_clauses,
    dim_ties,
    distinct_clauses,
    empty_dims,
    index_ties,
    insert_ties,
    joined_parts,
    kernel_pads,
    letter_ties,
    list_counts,
    list_sizes,
    matmul_ties,
    merges,
    norm_ties,
    numel_ties,
    order_clauses,
    outer_ties,
    pads,
    platform_rows,
    promotion_clauses,
    rank_ties,
    reduced_parts,
    reduction_shapes,
    relations,
    requirement_items,
    scope_all,
    shape_formulas,
    shape_notes,
    spatial_ties,
    table_clauses,
    unused_sentences,
    value_notes,
    value_rows,
)
from conformance.draft.closest import closest
from conformance.draft.context import Clause, Context, Evidence, build_context, source
from conformance.draft.facts import PageFacts, Sentence
from conformance.draft.pattern_table import PATTERNS
from conformance.draft.patterns import Match, match
from conformance.draft.row_status import RowStatus
from conformance.draft.unread_parts import part_readings
from conformance.spec.vocabulary import Vocabulary

_SPLIT = re.compile(r"[。；;\n]+")
_TIES = (bmm_ties, rank_ties, list_counts, numel_ties, letter_ties, spatial_ties, index_ties, count_ties,
         insert_ties, attr_shape_ties, reduced_parts, bit_masks, shape_formulas, axis_limits)  # (ties)
_JOINED = {p.name: p.kinds for p in PATTERNS if p.name in joined_parts.JOINED}


@dataclass(frozen=True)
class RowOutcome:
    """What became of one sentence of the error table."""

    row: int  # index into PageFacts.errors
    sentence: Sentence
    pattern: str | None  # the pattern that read it
    checkable: bool  # a clause judges it with the row's code
    reviewed: bool  # it is a review clause
    evidence: tuple[Evidence, ...] = field(default=(), compare=False, repr=False)
    partial: bool = False  # a comma-or part says a rule its pattern does not read (unread_parts.py)


@dataclass
class Draft:
    ctx: Context
    clauses: list[Clause] = field(default_factory=list)  # the judged ones (and behaviors)
    reviews: list[Clause] = field(default_factory=list)
    outcomes: list[RowOutcome] = field(default_factory=list)
    implied: list[str] = field(default_factory=list)  # clauses left out: none breaks alone

    @property
    def facts(self) -> PageFacts:
        return self.ctx.facts

    @property
    def constraints(self) -> list[Clause]:
        return [*self.clauses, *self.reviews]

    def review(self, sentence: Sentence, closest_name: str | None = None, doc: str = "upstream") -> None:
        """A review clause quoting ``sentence`` (once per sentence and place)."""
        src = {**source([sentence]), "doc": doc}
        if any(c["source"] == src for c in self.reviews):
            return
        clause: Clause = {"id": self.ctx.new_id("REVIEW"), "kind": "review", "source": src}
        if closest_name:
            clause["closest"] = closest_name
        self.reviews.append(clause)


def sentences(facts: PageFacts) -> list[tuple[int, str, Sentence]]:
    """(row index, status, sentence) for each sentence of each error row."""
    out = []
    for i, row in enumerate(facts.errors):
        parts = [p.strip(" ，,") for p in _SPLIT.split(row.text.text) if p.strip(" ，,")]
        out += [(i, row.status, Sentence(p, row.text.where)) for p in parts or [row.text.text]]
    return out


def draft_clauses(facts: PageFacts, vocab: Vocabulary) -> Draft:
    """The clauses of one page (a PageError when the page leaves nothing the suite can run)."""
    draft = Draft(build_context(facts, vocab))
    ctx = draft.ctx
    names = [*ctx.params, *ctx.omitted]
    evidence: dict[str, list[Evidence]] = {}
    read: list[tuple[int, Sentence, str | None, list[Evidence], bool]] = []
    statuses = RowStatus(ctx, vocab)
    for row, status, sentence in sentences(facts):
        found = match(sentence.text, names) or requirement_items.read(ctx, sentence.text, names)
        parts = part_readings(sentence.text, found, names, match) if found else None
        partial = parts == []
        found = found or conditions.read(sentence.text, names)
        status = statuses.of(status, facts.errors[row].code, sentence)
        mine = [Evidence(k, m.pattern, params, status, sentence, limits, row)
                for m, params, limits in _readings(found, parts) for k in m.kinds] if found else []
        for e in mine:
            evidence.setdefault(e.kind, []).append(e)
        read.append((row, sentence, found.pattern if found else None, mine, partial))
    draft.clauses = _build(ctx, evidence, draft)
    _outcomes(draft, read)
    for said in statuses.reviews():
        draft.review(said, "status code")
    unused_sentences.review_unused(draft.ctx, draft.review)
    return draft


def _readings(found: Match, parts: list[Match] | None) -> list[tuple[Match, tuple[str, ...], dict[str, Any]]]:
    """(reading, params, limits) of each rule a sentence states: one, or each part of a row stating
    several tensors' ranks (rank_parts.py) or of a sentence joining rules with a comma and 或
    (unread_parts.py), marked with its place among them."""
    if parts:
        return [(m, m.params, {**m.limits, "part": i}) for i, m in enumerate(parts)]
    if "parts" not in found.limits:
        return [(found, found.params, found.limits)]
    return [(found, tuple(params), {**limits, "part": i})
            for i, (params, limits) in enumerate(found.limits["parts"])]


def _build(ctx: Context, ev: dict[str, list[Evidence]], draft: Draft) -> list[Clause]:
    made, origin = shape_notes.resolve(ctx, ev.get("shape_note", []))
    ev = {k: [*ev.get(k, []), *made.get(k, [])] for k in {*ev, *made}}
    null = table_clauses.not_null(ctx, ev.get("not_null", []))
    null_ids = {c["id"]: c["params"] for c in null}
    equal, ev["same_shape"] = norm_ties.split(ctx, ev.get("same_shape", []))
    bcast = relations.relation(ctx, "broadcastable", ev.get("broadcastable", []))
    bcast, into = broadcast_into.split(ctx, bcast, null_ids)
    built = [*null,
            *table_clauses.dtype_in(ctx, ev.get("dtype_in", []), draft.review),
            *relations.relation(ctx, "same_dtype", ev.get("same_dtype", [])),
            *promotion_clauses.build(ctx, ev.get("promotable", []), ev.get("castable", [])),
            *bcast, *into,
            *relations.broadcast_shapes(ctx, ev.get("expr", []), null_ids, bcast),
            *relations.relation(ctx, "same_shape", ev.get("same_shape", [])),
            *relations.relation(ctx, "same_format", ev.get("same_format", [])),
            *table_clauses.rank_in(ctx, ev.get("rank_in", [])),
            *array_ranks.array_ranks(ctx, ev.get("rank_in", []), null_ids),
            *dim_clauses.same_rank(ctx, ev.get("same_rank", [])),
            *dim_ties.clauses(ctx, ev.get("dim_tie", []), null_ids),
            *matmul_ties.clauses(ctx, ev.get(matmul_ties.KIND, []), null_ids),
            *outer_ties.clauses(ctx, ev.get(outer_ties.KIND, []), null_ids),
            *norm_ties.clauses(ctx, ev.get("norm_shape", []), equal, null_ids),
            *channel_ties.clauses(ctx, ev.get("channel", []), null_ids),
            *attr_clauses.value_in(ctx, ev.get("value_in", []), draft.review),
            *value_rows.fixed_flags(ctx, ev.get("value_in", [])),
            *attr_clauses.dim_range(ctx, ev.get("dim_range", []), null_ids),
            *attr_clauses.sign(ctx, ev.get("sign", [])), *value_notes.clauses(ctx, ev.get("value_in", [])),
            *attr_clauses.interval(ctx, ev.get("interval", [])),
            *attr_clauses.length(ctx, ev.get("length", []), null_ids),
            *table_clauses.format_in(ctx, ev.get("format_in", []), draft.review),
            *relations.empty_tensors(ctx, null_ids, ev.get("not_empty", [])),
            *behaviors.contiguity(ctx, ev.get("contiguous", [])),
            *behaviors.page_behaviors(ctx)]
    built += distinct_clauses.distinct(ctx, ev.get("distinct", []), built)
    built += value_rows.elements_equal(ctx, ev.get("elements_equal", []))
    built += value_rows.nonzero(ctx, ev.get("nonzero", []))
    built += order_clauses.clauses(ctx, ev.get("order", []))
    built += value_rows.same_length(ctx, ev.get("same_length", []))
    built += empty_dims.clauses(ctx, ev.get(empty_dims.KIND, []), null_ids)
    settled = {id(e) for e in origin.values()}
    built += reduction_shapes.clauses(ctx, [e for e in ev.get("shape_note", []) if id(e) not in settled],
                                      ev.get(reduction_shapes.EMPTY, []), built, null_ids)
    built += conditions.clauses(ctx, ev.get(conditions.PATTERN, []))
    built += list_sizes.clauses(ctx, ev.get(list_sizes.KIND, []), null_ids)
    built += pads.clauses(ctx, ev.get(pads.LIMIT, []), ev.get(pads.SHAPE, []), ev.get("shape_note", []),
                          null_ids)
    built += kernel_pads.clauses(ctx, ev.get(kernel_pads.KIND, []), null_ids, built)
    for ties in _TIES:
        built += ties.clauses(ctx, ev.get(ties.KIND, []), null_ids)
    built += platform_rows.clauses(ctx, ev.get(platform_rows.KIND, []))
    list_counts.require_counts(built)
    built = matmul_ties.unbroadcast_operands(ctx, built, draft.review)
    shape_notes.relink(built, origin)
    list_sizes.link(built, list(dict.fromkeys(origin.values())))
    # rank limits over shape groups, then over same-rank rows' tensors (and tidied again)
    built = relations.break_free_last(scope_all.unpinned(ctx, built))
    ranks = dim_clauses.free_first(
        merges.tie_ranks(ctx, dim_clauses.tie_same_ranks(merges.tie_ranks(ctx, built))))
    return joined_parts.link(_value_dtypes(merges.tie_dtypes(ranks)), _JOINED)


def _value_dtypes(clauses: list[Clause]) -> list[Clause]:
    """A clause reading a host scalar's value ("lambd.value >= 0") requires the scalar's dtype
    clauses: a case breaking those may give it a complex value, which has no order."""
    for c in clauses:
        for name in c.get("_reads_value", ()):
            ids = [d["id"] for d in clauses if d["kind"] == "dtype_in" and name in d["params"]]
            c["requires"] = list(dict.fromkeys([*c.get("requires", []), *ids]))
    return clauses


def _outcomes(draft: Draft, read: list[tuple[int, Sentence, str | None, list[Evidence], bool]]) -> None:
    """Which sentences a coded clause encodes; the others (bar a platform row) are reviewed, and so
    is a sentence of several parts one of which no clause says."""
    for row, sentence, pattern, mine, partial in read:
        groups = _groups(draft, mine)
        # a platform row with no clause (no line marked unsupported): the product section says it
        platform = pattern is not None and all(e.kind == platform_rows.KIND for e in mine)
        reviewed = (not all(groups) and not platform) or partial
        if reviewed:
            draft.review(sentence, pattern or closest(sentence.text))
        checkable = all(_coded(g) for g in groups) and not partial
        draft.outcomes.append(RowOutcome(row, sentence, pattern, checkable, reviewed, tuple(mine), partial))


def _encoding(draft: Draft, evidence: list[Evidence]) -> list[Clause]:
    mine = {id(e) for e in evidence}
    ids = {c["id"] for c in draft.clauses}
    return [c for c in draft.clauses  # (relations.py: a row split over lists needs every part)
            if any(id(e) in mine and set(c.get("_with", {}).get(id(e), ())) <= ids
                   for e in c.get("_evidence", []))]


def _groups(draft: Draft, evidence: list[Evidence]) -> list[list[Clause]]:
    """The clauses encoding a sentence: one group, or one per part of a sentence stating several
    tensors' ranks (rank_parts.py), each of which must be encoded."""
    parts = [e for e in evidence if "part" in e.limits]
    return [_encoding(draft, [e]) for e in parts] if parts else [_encoding(draft, evidence)]


def _coded(clauses: list[Clause]) -> bool:
    return any(str(c.get("on_violation", "")).startswith("ACLNN_") for c in clauses)


def recount(draft: Draft) -> None:
    """Which sentences are still checkable after clauses were left out (emit.py); a joined sentence
    a part of which went (no other clause says that part) is left for review."""
    draft.outcomes = [replace(o, checkable=not o.partial
                              and all(_coded(g) for g in _groups(draft, list(o.evidence))))
                      for o in draft.outcomes]
    for i, o in enumerate(draft.outcomes):
        if o.pattern in joined_parts.JOINED and not o.checkable and not o.reviewed:
            draft.review(o.sentence, o.pattern)
            draft.outcomes[i] = replace(o, reviewed=True)

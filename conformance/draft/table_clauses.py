"""Clauses on single parameters, from the parameter table and the error rows that give their
codes: not_null, dtype_in (per product), format_in, rank_in, value_in. A limit the table states but
no error row speaks of is a clause with ``on_violation: unspecified``."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, source
from conformance.draft.dtype_phrasings import dtype_names
from conformance.draft.facts import ParamRow, Review, Sentence
from conformance.draft.null_rows import all_but


def _scope(ctx: Context, e: Evidence, names: Iterable[str]) -> list[str]:
    """The parameters of ``names`` a reading speaks of: those it names, or all for "输入或输出"."""
    wanted = list(names)
    return wanted if e.limits.get("scope") == "all" else [p for p in e.params if p in wanted]


def not_null(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """One clause for the null-pointer rows (optional parameters never: their null is valid)."""
    pointers = ctx.required_pointers()
    params: list[str] = []
    used = []
    for e in evidence:
        named = _scope(ctx, e, pointers)
        generic = not e.params and not named  # "如果传入参数是必选输入…且是空指针"
        but = all_but(ctx, e.sentence.text)  # "…为aclTensor或aclTensorList且非X，是空指针"
        if but is not None:
            named, generic = but, False
        params += pointers if generic else named
        if named or generic:
            used.append(e)
    params = [p for p in pointers if p in params]
    clauses = [{"id": ctx.new_id("NULL"), "source": source(e.sentence for e in used), "kind": "not_null",
                "params": params, "on_violation": used[0].status, "_evidence": used}] if params else []
    return clauses + _null_strings(ctx, evidence)


def _null_strings(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """"传入的roundMode是空指针": a required string a row names itself (never "every input": a
    string's null is often its default). A clause apart, so a string the draft can only draw as
    null (no values known) takes no tensor's clause with it when it is left out."""
    strings = [n for n in ctx.of_kind("string") if not ctx.params[n].get("optional")]
    used = [e for e in evidence
            if any(p in strings for p in e.params) and all_but(ctx, e.sentence.text) is None]
    params = [p for p in strings if any(p in e.params for e in used)]
    if not params:
        return []
    return [{"id": ctx.new_id("NULL"), "source": source(e.sentence for e in used), "kind": "not_null",
             "params": params, "on_violation": used[0].status, "_evidence": used}]


def _per_product(ctx: Context, name: str, seen: tuple[str, ...] = ()) -> dict[str, list[str]] | None:
    """The tensor's dtypes per product (its own list and product notes, or those of the tensor
    its dtype is "the same as"); None unless every product has some."""
    row = ctx.rows.get(name)
    if row is None:
        return None
    if not row.dtypes and row.dtype_same_as in ctx.rows and row.dtype_same_as not in seen:
        return _per_product(ctx, row.dtype_same_as, (*seen, name))
    table = {p: _canonical(ctx, row.product_dtypes.get(p, row.dtypes)) for p in ctx.products}
    return table if all(table.values()) else None


def dtypes_per_product(ctx: Context, name: str) -> dict[str, list[str]] | None:
    """A tensor's dtypes on each product of the page, as its dtype_in clause lists them."""
    return _per_product(ctx, name)


def _canonical(ctx: Context, names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(d for n in names if (d := ctx.vocab.dtype(n)) is not None))


def _coded(ctx: Context, evidence: list[Evidence], names: list[str]) -> dict[str, Evidence]:
    """For each parameter of ``names``, the first reading giving it a code."""
    out: dict[str, Evidence] = {}
    for e in evidence:
        for p in _scope(ctx, e, names):
            out.setdefault(p, e)
    return out


def _guessed_first(ctx: Context, review: Review) -> list[Clause]:
    """Cases are drawn in the dtypes of the first tensor on each product: where the page lists
    none for it, the dtypes it lists for the others (or FLOAT), as a reviewed guess."""
    first = ctx.tensors[0]
    row = ctx.rows.get(first)
    listed = {p: [d for n in ctx.tensors if n in ctx.rows
                  for d in _canonical(ctx, ctx.rows[n].product_dtypes.get(p, ctx.rows[n].dtypes))]
              for p in ctx.products}
    anywhere = list(dict.fromkeys(d for v in listed.values() for d in v)) or ["FLOAT"]
    table = {p: list(dict.fromkeys(v)) or anywhere for p, v in listed.items()}
    where = row.where if row is not None else ctx.facts.params[0].where if ctx.facts.params else None
    if where is not None:
        review(Sentence(f"Drafted guess: the page lists no dtype of {first} on "
                        f"{', '.join(p for p, v in listed.items() if not v) or 'some product'}; the draft "
                        "draws the dtypes it lists for the other tensors", where), doc="contract")
    return [{"id": ctx.new_id("DTYPE"), "source": source([Sentence(f"{first}：数据类型", where)])
             if where is not None else {"doc": "contract", "quote": "no dtype listed", "where": "-"},
             "kind": "dtype_in", "params": [first], "per_product": table, "on_violation": "unspecified"}]


def dtype_in(ctx: Context, evidence: list[Evidence], review: Review) -> list[Clause]:
    """Per-product dtype lists; a tensor whose dtype is "the same as X" shares X's list and code
    (and a host scalar's row its own list)."""
    tensors = [*ctx.tensors, *ctx.of_kind("scalar")]
    guessed = [] if _per_product(ctx, tensors[0]) is not None else _guessed_first(ctx, review)
    evidence = [e for e in evidence if _as_listed(ctx, e, tensors)]
    coded = _coded(ctx, evidence, tensors)
    groups: dict[tuple[Any, ...], list[str]] = {}
    for name in tensors:
        table = _per_product(ctx, name)
        if table is None:
            continue
        row = ctx.rows[name]
        by = coded.get(name) or (coded.get(row.dtype_same_as) if not row.dtypes else None)
        key = (tuple((p, tuple(v)) for p, v in table.items()), by.status if by else "unspecified")
        groups.setdefault(key, []).append(name)
    clauses = []
    for (table, status), names in groups.items():
        readings = list(dict.fromkeys(e for n in names if n in coded for e in evidence  # (every row
                                      if n in _scope(ctx, e, tensors) and e.status == status))  # saying it)
        readings += _again(ctx, evidence, names, status, readings, tensors)
        cells = [_dtype_cell(ctx.rows[n]) for n in names]
        clauses.append({"id": ctx.new_id("DTYPE"),
                        "source": source([*(e.sentence for e in readings), *cells]),
                        "kind": "dtype_in", "params": names,
                        "per_product": {p: list(v) for p, v in table}, "on_violation": status,
                        "_evidence": readings})
    return guessed + clauses


def _as_listed(ctx: Context, e: Evidence, tensors: list[str]) -> bool:
    """Whether a reading naming dtypes ("indicesOut的数据类型不为INT64") names exactly those the table
    lists for each tensor it names, on every product: the clause lists the table's (a reading
    naming none, "self的数据类型不在支持的范围之内", says the table's list itself)."""
    if "dtypes" not in e.limits:
        return True
    named = dtype_names(ctx.vocab, e.limits["dtypes"])
    if named is None or not e.params or any(p not in tensors for p in e.params):
        return False
    tables = [_per_product(ctx, p) for p in e.params]
    return all(t is not None and all(set(v) == set(named) for v in t.values()) for t in tables)


def _again(ctx: Context, evidence: list[Evidence], names: list[str], status: str,
           readings: list[Evidence], scope: list[str]) -> list[Evidence]:
    """Later rows of the same code on these tensors ("self或out的…", then "self的数据类型不在…"):
    the clause states them too."""
    return [e for e in evidence if e.status == status and e not in readings
            and set(_scope(ctx, e, scope)) & set(names)]


def _dtype_cell(row: ParamRow) -> Sentence:
    said = "、".join(row.dtypes) if row.dtypes else f"与{row.dtype_same_as}一致"
    return Sentence(f"{row.name}：{said}", row.where)


def known_formats(ctx: Context, row: ParamRow) -> list[str] | None:
    """A row's formats when the vocabulary knows every one and ND is among them (cases are ND)."""
    known = [f for f in row.formats if f in ctx.vocab.formats]
    return known if "ND" in known and len(known) == len(row.formats) else None


def format_in(ctx: Context, evidence: list[Evidence], review: Review) -> list[Clause]:
    """Formats the vocabulary knows; a tensor listing no ND is left to a person (cases are ND)."""
    tensors = ctx.tensors
    coded = _coded(ctx, evidence, tensors)
    groups: dict[tuple[Any, ...], list[str]] = {}
    for name in tensors:
        row = ctx.rows.get(name)
        if row is None or not row.formats:
            continue
        known = known_formats(ctx, row)
        if known is None:
            review(Sentence(f"{name}：数据格式 {'、'.join(row.formats)}", row.where), "format not supported")
            continue
        key = (tuple(known), coded[name].status if name in coded else "unspecified")
        groups.setdefault(key, []).append(name)
    clauses = []
    for (formats, status), names in groups.items():
        readings = list(dict.fromkeys(e for n in names if n in coded for e in evidence  # (every row
                                      if n in _scope(ctx, e, tensors) and e.status == status))  # saying it)
        cells = [Sentence(f"{n}：{'、'.join(ctx.rows[n].formats)}", ctx.rows[n].where) for n in names]
        clauses.append({"id": ctx.new_id("FORMAT"),
                        "source": source([*(e.sentence for e in readings), *cells]),
                        "kind": "format_in", "params": names, "formats": list(formats),
                        "on_violation": status, "_evidence": readings})
    return clauses


def rank_anchor(ctx: Context, name: str) -> str:
    """The tensor whose rank ``name``'s is tied to by the table's cells ("与self一致", followed
    both ways and through chains): the first of the tied tensors with a rank range of its own (the
    first of them when none has); ``name`` itself when untied."""
    tied, grew = {name}, True
    while grew:
        more = {r.rank_same_as for t in tied if (r := ctx.rows.get(t)) is not None} | {
            t for t, r in ctx.rows.items() if r.rank_same_as in tied}
        more = {t for t in more if t in ctx.tensors} - tied
        tied, grew = tied | more, bool(more)
    members = [t for t in ctx.tensors if t in tied]
    ranked = [t for t in members if ctx.rows.get(t) is not None and ctx.rows[t].rank is not None]
    return (ranked or members)[0]


def _rank_cell(ctx: Context, name: str, row: ParamRow, table: tuple[int, int]) -> Sentence:
    """What says the tensor's rank range: its own cell (or usage sentence, now read), or the cell
    tying its rank to another's."""
    own = ctx.rows[name]
    if own is not row:
        return Sentence(f"{name}：维度与{own.rank_same_as}一致", own.where)
    if row.rank_said is not None:
        ctx.used.add(row.rank_said)
        return row.rank_said
    return Sentence(f"{name}：维度 {table[0]}-{table[1]}", row.where)


def rank_in(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """The error rows' limits with their codes; the table's rank range beyond them, unspecified.
    Tensors whose cells tie their ranks ("与self一致") take their anchor's range, in a clause of
    their own marked ``same`` (they share one rank)."""
    groups: dict[tuple[Any, ...], tuple[list[str], list[Any]]] = {}
    anchors = {t: rank_anchor(ctx, t) for t in ctx.tensors}
    tied = {a for t, a in anchors.items() if a != t}

    def add(name: str, limits: dict[str, Any], status: str, why: Any) -> None:
        tie = anchors[name] if anchors[name] in tied else None
        key = (tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in limits.items())),
               status, tie)
        names, whys = groups.setdefault(key, ([], []))
        names.append(name) if name not in names else None
        whys.append(why)

    for name in ctx.tensors:
        row = ctx.rows.get(name)
        row = row if row is not None and row.rank is not None else ctx.rows.get(anchors[name])
        table = row.rank if row is not None else None
        said: dict[str, Any] = {}
        found = _rank_readings(ctx, name, table, evidence)
        for limits, e in found:
            add(name, _joined(limits, e.status, found), e.status, e)
            said.update(limits)
        if table is not None and row is not None:
            cell = _rank_cell(ctx, name, row, table)
            if "max" not in said and "ranks" not in said:
                add(name, {"max": table[1]}, "unspecified", cell)
            if table[0] > 0 and "min" not in said and "ranks" not in said:
                add(name, {"min": table[0]}, "unspecified", cell)
    clauses: list[Clause] = []
    marked: dict[str, tuple[Any, ...]] = {}  # tie → the one group whose clause says it, coded first
    for key, (names, _) in sorted(groups.items(), key=lambda item: item[0][1] == "unspecified"):
        if key[2] and len(names) > 1:
            marked.setdefault(key[2], key)
    for (limits, status, tie), (names, whys) in groups.items():
        readings = [w for w in dict.fromkeys(whys) if isinstance(w, Evidence)]
        sentences = [w.sentence if isinstance(w, Evidence) else w for w in dict.fromkeys(whys)]
        clause = {"id": ctx.new_id("RANK"), "source": source(sentences), "kind": "rank_in",
                  "params": names, **{k: list(v) if isinstance(v, tuple) else v for k, v in limits},
                  "on_violation": status, "_evidence": readings}
        if tie and marked.get(tie) == (limits, status, tie):  # one clause says it: a case giving
            clause["same"] = True  # one tensor another rank then breaks that clause alone
        clauses.append(clause)
    return clauses


Readings = list[tuple[dict[str, Any], Evidence]]


def _rank_readings(ctx: Context, name: str, table: tuple[int, int] | None,
                   evidence: list[Evidence]) -> Readings:
    """(limits, reading) of each row giving ``name`` a rank limit ("table": the table's range)."""
    found = []
    for e in evidence:  # ("ranked": the tensors a row joining a rank to another rule ranks)
        if name not in _scope(ctx, e, ctx.tensors) or name not in e.limits.get("ranked", (name,)):
            continue
        limits = {k: v for k, v in e.limits.items() if k in ("min", "max", "ranks")}
        if e.limits.get("table") and table is not None:
            limits = {"min": table[0], "max": table[1]} if table[0] > 0 else {"max": table[1]}
        if limits:
            found.append((limits, e))
    return found


def _joined(limits: dict[str, Any], status: str, found: Readings) -> dict[str, Any]:
    """A one-sided limit ("最大维度不超过8维") that is one side of a range another row with the same
    code gives the tensor ("维度不在支持的范围内": the table's 4-8): that range, one clause saying
    both (two would each break only with the other, and neither would be tested)."""
    (side, bound), = limits.items() if len(limits) == 1 else ((None, None),)
    if side not in ("min", "max"):
        return limits
    return next((other for other, e in found if e.status == status and {"min", "max"} <= set(other)
                 and other[side] == bound), limits)

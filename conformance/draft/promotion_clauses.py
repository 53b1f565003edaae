"""promotable and castable clauses from the error rows ("self和other无法做数据类型推导", "推导出的数据
类型无法转换为指定输出out的类型") and the usage notes ("需满足数据类型推导规则", uncoded).

A promotion sentence counts only when every parameter it names is an input with a dtype (a
sentence naming an output is about something else; an output its row calls "输入/输出" is read, so
an input too). A row joining the promotion to its cast by "或" gives both clauses, the cast's
sources the promotion's inputs. A cast sentence names its target ("to": a
tensor or scalar of any role, a dtype, or inputs whose promoted dtype it is), and either its
sources (several with no promotion said: one clause each) or nothing: "the promoted dtype", whose
inputs the promotion sentence of the same row names (else the page's one promotion clause, coded
or from the notes; else the page's one input, a tensor list; else it is not read). Whether a
clause can be broken within the page's dtype lists is decided later, as for every clause
(breakable.py).
"""
from __future__ import annotations

import re

from conformance.draft.condition_phrasings import is_conditional
from conformance.draft.context import TENSOR_KINDS, Clause, Context, Evidence, source
from conformance.draft.sentence_limits import named

_NOTE = re.compile(r"(?:满足|符合)\s*(?:数据类型|类型)?\s*(?:推导规则|互推导关系|推导关系)")


def build(ctx: Context, promote: list[Evidence], cast: list[Evidence]) -> list[Clause]:
    clauses = _promotable(ctx, promote)
    _notes(ctx, clauses)  # (before the casts: "推导出的数据类型" may be the notes' promotion)
    clauses += _castable(ctx, cast, clauses)
    for c in clauses:
        c["source"] = source(c.pop("_sentences"))
    return clauses


def _inputs(ctx: Context) -> list[str]:
    """Input tensors, tensor lists and scalars: what promotion combines (an in-place ``selfRef``
    or a tensor whose row says "输入/输出", the page's input and output at once, among them; a
    list's elements each)."""
    read = {r.name for r in ctx.facts.params if r.reads}
    return [n for n, p in ctx.params.items() if p["kind"] == "scalar" or p["kind"] in TENSOR_KINDS
            and (p["role"] == "input" or n.endswith("Ref") or n in read)]


def _several(ctx: Context, members: list[str]) -> bool:
    """Two inputs or more, or one list ("tensors列表中无法做数据类型推导": its elements)."""
    return len(members) >= 2 or len(members) == 1 and ctx.params[members[0]]["kind"] == "tensor_list"


def _members(ctx: Context, params: tuple[str, ...], scope_all: bool) -> list[str] | None:
    """The inputs a promotion sentence names, in prototype order; None if it names anything else."""
    inputs = _inputs(ctx)
    if scope_all:
        return [n for n in inputs if ctx.params[n]["kind"] == "tensor"]
    if not set(params) <= set(inputs):
        return None
    return [n for n in ctx.params if n in params]


def _add(clauses: list[Clause], ctx: Context, kind: str, params: list[str], e: Evidence,
         to: str | list[str] | None = None) -> None:
    """One clause per (parameters, output, code); sentences saying the same join it."""
    for c in clauses:
        if c["kind"] == kind and c["params"] == params and c.get("to") == to \
                and c["on_violation"] == e.status:
            c["_evidence"].append(e)
            c["_sentences"].append(e.sentence)
            return
    clause: Clause = {"id": ctx.new_id("PROMOTE" if kind == "promotable" else "CAST"), "kind": kind,
                      "params": params}
    if to is not None:
        clause["to"] = to
    clause.update({"on_violation": e.status, "_evidence": [e], "_sentences": [e.sentence]})
    clauses.append(clause)


def _promotable(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    out: list[Clause] = []
    for e in evidence:
        named = tuple(e.limits.get("promote", e.params))  # (a row joining the cast: its inputs)
        members = _members(ctx, named, e.limits.get("scope") == "all")
        if members is not None and _several(ctx, members):
            _add(out, ctx, "promotable", members, e)
    return out


def _castable(ctx: Context, evidence: list[Evidence], promotions: list[Clause]) -> list[Clause]:
    out: list[Clause] = []
    for e in evidence:
        found = _cast_ends(ctx, e, promotions)
        if found is None:
            continue
        sources, to = found
        for group in ([[s] for s in sources] if e.limits.get("each") else [sources]):
            _add(out, ctx, "castable", group, e, to)
    return out


def _cast_ends(ctx: Context, e: Evidence, promotions: list[Clause]
               ) -> tuple[list[str], str | list[str]] | None:
    """(sources, target) of a cast sentence; None when it cannot be placed. The target is a tensor
    or scalar, a dtype, or inputs whose promoted dtype it is ("self和other推导后的数据类型")."""
    outputs = [n for n in ctx.tensors if ctx.params[n]["role"] == "output"]
    if "pair" in e.limits:
        a, b = e.limits["pair"]  # "self与out的数据类型不满足互转换关系": the output is 'to'
        if (a in outputs) == (b in outputs):
            return None
        sources, to = ([a], b) if b in outputs else ([b], a)
    else:
        sources, to = list(e.limits["from"]), e.limits["to"]
    target = _target(ctx, to)
    if target is None or sources == [to]:
        return None
    if "promote" in e.limits:  # "self与max类型推导失败，或推导类型无法转为out的数据类型"
        members = _members(ctx, tuple(e.limits["promote"]), False)
        return (members, target) if members and _several(ctx, members) else None
    if not sources:  # "推导出的数据类型": the row's promotion, else the page's only one
        same_row = [c for c in promotions if any(x.row == e.row for x in c["_evidence"])]
        coded = [c for c in promotions if c["_evidence"]]  # (as before the notes were read)
        pick = same_row or [c for c in (coded or promotions) if len(coded or promotions) == 1]
        if len(pick) == 1:
            return list(pick[0]["params"]), target
        typed = [n for n in _inputs(ctx) if n != to]  # one list and nothing else: its elements'
        one_list = not promotions and len(typed) == 1 and ctx.params[typed[0]]["kind"] == "tensor_list"
        return (typed, target) if one_list else None
    members = _members(ctx, tuple(sources), False)
    return (members, target) if members else None


def _target(ctx: Context, to: str | list[str]) -> str | list[str] | None:
    """A tensor or scalar parameter (any role: "无法转换为self的数据类型"), several inputs (their
    promoted dtype), or a dtype name; None for anything else (an attribute the spec leaves out)."""
    if isinstance(to, list):
        members = _members(ctx, tuple(to), False)
        return members if members and len(members) == len(to) and _several(ctx, members) else None
    if to in ctx.params:
        return to if ctx.params[to]["kind"] in ("tensor", "scalar") else None
    return ctx.vocab.dtype(to)


def _notes(ctx: Context, clauses: list[Clause]) -> None:
    """"self与other的数据类型需满足数据类型推导规则": the coded promotable clause over those inputs
    quotes it too; else an unspecified clause of its own."""
    inputs = _inputs(ctx)
    for row in ctx.facts.params:
        if row.name not in inputs:
            continue
        for s in row.usage:
            if not _NOTE.search(s.text) or is_conditional(s.text) or re.search(r"或|转换|输出", s.text):
                continue
            others = [n for n in named(s.text, ctx.params) if n != row.name]
            if not others or not set(others) <= set(inputs):
                continue
            members = [n for n in ctx.params if n in {row.name, *others}]
            ctx.used.add(s)
            home = next((c for c in clauses if c["kind"] == "promotable" and c["params"] == members), None)
            if home is not None:
                if s not in home["_sentences"]:
                    home["_sentences"].append(s)
                continue
            clauses.append({"id": ctx.new_id("PROMOTE"), "kind": "promotable", "params": members,
                            "on_violation": "unspecified", "_evidence": [], "_sentences": [s]})


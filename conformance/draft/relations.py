"""Clauses relating tensors, from the error rows (with their codes) and the usage notes (without):
same_dtype, broadcastable, the broadcast shape (an ``expr`` clause), same_shape, and what the
usage notes say of empty tensors."""
from __future__ import annotations

import re
from collections.abc import Iterable

from conformance.draft import list_ties
from conformance.draft.context import Clause, Context, Evidence, expressible, read_by_call, source
from conformance.draft.facts import Sentence
from conformance.draft.list_kinds import ties_elements, within_lists
from conformance.draft.sentence_limits import IDENT
from conformance.draft.usage import empty_support, relations

_PART = {"same_dtype": "SAME-DTYPE", "same_shape": "SAME-SHAPE", "same_format": "SAME-FORMAT",
         "broadcastable": "BCAST"}
# (broadcasting pairwise is not broadcasting jointly)
_TRANSITIVE = ("same_dtype", "same_shape", "same_format")
_INTO = re.compile(r"(?:broadcast|广播)\s*(?:到|至|成)")  # "x不能broadcast至y": x into y's shape
# "gradOutput的shape不能向self或者target做broadcast": into their shape, more than broadcastable says
TOWARDS = re.compile(rf"向.{{0,30}}(?:broadcast|广播)|{_INTO.pattern}")


def _members(ctx: Context, e: Evidence) -> list[str]:
    tensors = ctx.tensors  # in the prototype's order (the first is the one others follow)
    return tensors if e.limits.get("scope") == "all" else [t for t in tensors if t in e.params]


def _inputs(ctx: Context) -> list[str]:
    return [t for t in ctx.tensors if ctx.params[t]["role"] == "input"]


def _noted(ctx: Context, kind: str) -> list[tuple[tuple[str, ...], Sentence]]:
    """(tensors, sentence) for each relation of ``kind`` the usage notes (or the dtype cell's "与X
    保持一致") state."""
    out = []
    tensors, lists = ctx.tensors, ctx.of_kind("tensor_list")
    for row in ctx.facts.params:
        if row.name not in tensors:
            continue
        if kind == "same_dtype" and row.dtype_same_as in tensors and not row.dtypes:
            cell = Sentence(f"{row.name}：与{row.dtype_same_as}一致", row.where)
            out.append(((row.name, row.dtype_same_as), cell))
        for s in row.usage:
            said = relations(s.text, row.name, tensors, _inputs(ctx))
            out += [(group, s) for k, group in said if k == kind]
            if kind == "same_dtype" and row.name in lists and ties_elements(s.text):
                out.append(((row.name,), s))
    return out


def relation(ctx: Context, kind: str, evidence: list[Evidence]) -> list[Clause]:
    """Coded clauses from the error rows (one per distinct set of tensors); what the notes add
    beyond them joins into unspecified clauses (tensors linked by notes, transitively)."""
    clauses = _coded_relations(ctx, kind, evidence)
    groups: list[tuple[set[str], list[Sentence]]] = []
    lists = ctx.of_kind("tensor_list")
    for group, sentence in _noted(ctx, kind):
        ctx.used.add(sentence)
        home = list_ties.note_home(clauses, group, lists)
        if home is not None:
            home["_sentences"].append(sentence)
            continue
        if list_ties.lone_within(clauses, group, lists):
            clauses.append({"id": ctx.new_id(_PART[kind]), "kind": kind, "params": list(group),
                            "lists": "each", "on_violation": "unspecified", "_evidence": [],
                            "_sentences": [sentence]})
            continue
        joined = [g for g in groups if g[0] & set(group)]
        merged = (set(group).union(*(g[0] for g in joined)), [s for g in joined for s in g[1]] + [sentence])
        groups = [g for g in groups if g not in joined] + [merged]
    for names, sentences in groups:
        # what coded clauses already tie is not said again (an equality): each is stood for by its
        # first tensor (the one its breaks leave alone), so no case breaking it breaks this one too
        touching = [c for c in clauses if set(c["params"]) & names and list_ties.ties(c)
                    ] if kind in _TRANSITIVE else []
        loose = names - {t for c in touching for t in c["params"]}
        members = {c["params"][0] for c in touching} | loose
        if len(members) < 2 and touching:
            touching[0]["_sentences"] += sentences
            continue
        clauses.append({"id": ctx.new_id(_PART[kind]), "kind": kind,
                        "params": [t for t in ctx.tensors if t in members], "on_violation": "unspecified",
                        "_evidence": [], "_sentences": sentences})
    if kind == "same_dtype":
        list_ties.by_position(clauses, lists)
    for c in clauses:
        c["source"] = source(c.pop("_sentences"))
    return clauses


def _coded_relations(ctx: Context, kind: str, evidence: list[Evidence]) -> list[Clause]:
    """One clause per set of tensors the rows relate (and code); for an equality, sets sharing a
    tensor joined: "gradOutput和self的shape不同" and "out和self的shape不同" are one same_shape over
    the three (two clauses sharing self could not be broken one without the other). A row on the
    dtypes within lists ("x或out中的Tensor的数据类型不一致") joins a clause of its code already tying
    those lists, else is one ``lists: each`` clause (list_ties.py)."""
    groups: list[tuple[set[str], str, list[Evidence]]] = []
    lists = ctx.of_kind("tensor_list")
    inside = {id(e): within_lists(e.sentence.text, e.params, lists) if kind == "same_dtype" else []
              for e in evidence}
    for e in evidence:
        members = set(_members(ctx, e))
        if not inside[id(e)] and len(members) >= 2:
            groups = _joined(groups, members, e, kind in _TRANSITIVE)
    if kind not in _TRANSITIVE:  # a pair within a joint relation of its code: encoded by it
        groups = _into_supersets(groups)
    each = list_ties.within(groups, [e for e in evidence if inside[id(e)]], inside)
    made = [*((g, {}) for g in groups), *((g, {"lists": "each"}) for g in each)]
    clauses = [{"id": ctx.new_id(_PART[kind]), "kind": kind, "params": [t for t in ctx.tensors if t in names],
                **tie, "on_violation": status, "_evidence": readings,
                "_sentences": [e.sentence for e in readings]}
               for (names, status, readings), tie in made]
    if kind == "same_dtype":
        list_ties.by_position(clauses, lists)
    for c in clauses:  # a row split over lists is encoded only while every part of it stands
        c["_with"] = {id(e): [d["id"] for d in clauses if d is not c and e in d["_evidence"]]
                      for e in c["_evidence"] if inside[id(e)]}
    return clauses


def _into_supersets(groups: list[tuple[set[str], str, list[Evidence]]]
                    ) -> list[tuple[set[str], str, list[Evidence]]]:
    """"target和self不满足broadcast关系" beside "gradOutput、self和target无法做broadcast" (one code):
    shapes that do not broadcast jointly are refused with that code, so the pair's row is encoded
    by the joint clause (a clause of the pair alone could never be broken without it). Not beside
    a row saying into which shape ("向self做broadcast"): the joint clause says less than that row."""
    out: list[tuple[set[str], str, list[Evidence]]] = []
    for g in sorted(groups, key=lambda g: -len(g[0])):
        home = next((h for h in out if h[1] == g[1] and g[0] <= h[0]
                     and not any(TOWARDS.search(e.sentence.text) for e in (*h[2], *g[2]))), None)
        if home is None:
            out.append(g)
        else:
            home[2].extend(g[2])
    return [g for g in groups if g in out]


def _joined(groups: list[tuple[set[str], str, list[Evidence]]], members: set[str], e: Evidence,
            transitive: bool) -> list[tuple[set[str], str, list[Evidence]]]:
    joined = [g for g in groups if g[1] == e.status and (g[0] == members or (transitive and g[0] & members))]
    merged = (members.union(*(g[0] for g in joined)), e.status, [x for g in joined for x in g[2]] + [e])
    return [g for g in groups if g not in joined] + [merged]


def broadcast_shapes(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]],
                     bcast: list[Clause]) -> list[Clause]:
    """``R.shape == broadcast(...)`` (R an output) or ``broadcast(R.shape, ...) == R.shape`` (the
    others broadcast into R) for each row or note saying which tensor holds the broadcast shape."""
    found: dict[str, tuple[list[str], bool, str, list[Evidence], list[Sentence]]] = {}
    for e in evidence:
        names = _members(ctx, e)
        result = e.limits.get("result")
        if result not in names:
            outputs = [n for n in names if ctx.params[n]["role"] == "output"]
            result = outputs[0] if len(outputs) == 1 else None
        others = [n for n in names if n != result]
        if result is not None and not others:  # "out的shape与broadcast后的shape不一致": the inputs
            others = [t for t in ctx.tensors if t != result and ctx.params[t]["role"] == "input"]
        if result is None or not others:
            continue
        into = read_by_call(ctx.params[result]) or bool(_INTO.search(e.sentence.text))
        entry = found.setdefault(result, (others, into, e.status, [], []))
        entry[3].append(e)
        entry[4].append(e.sentence)
    for row in ctx.facts.params:
        for s in row.usage:
            for kind, group in relations(s.text, row.name, ctx.tensors, _inputs(ctx)):
                if kind == "broadcast_of" and not any(ctx.params[t]["kind"] == "tensor_list" for t in group):
                    ctx.used.add(s)  # (an expression has no shape of a list)
                    into = read_by_call(ctx.params[group[0]])  # (its shape given: the others fit in)
                    entry = found.setdefault(group[0], (list(group[1:]), into, "unspecified", [], []))
                    entry[4].append(s)
    clauses = []
    for result, (others, into, status, readings, sentences) in found.items():
        clause = _broadcast_clause(ctx, result, others, into, null_ids, bcast)
        if clause is not None:
            clause.update({"source": source(sentences), "on_violation": status, "_evidence": readings})
            clauses.append(clause)
    return clauses


def _broadcast_clause(ctx: Context, result: str, others: list[str], into: bool,
                      null_ids: dict[str, list[str]], bcast: list[Clause]) -> Clause | None:
    optional = {n for n, p in ctx.params.items() if p.get("optional")}
    others = [n for n in others if n not in optional]
    if result in optional or not others or not expressible(result, *others):
        return None
    shapes = ", ".join(f"{n}.shape" for n in others)
    text = (f"broadcast({result}.shape, {shapes}) == {result}.shape" if into
            else f"{result}.shape == broadcast({shapes})")
    operands = [*others, result] if into else others
    requires = [cid for cid, params in null_ids.items() if set(params) & {result, *others}]
    covering = covering_broadcasts(bcast, operands)
    if len(operands) > 1 and not covering:  # broadcast() of shapes that do not broadcast raises
        text = f"not broadcastable({', '.join(f'{n}.shape' for n in operands)}) or {text}"
    return {"id": ctx.new_id("EXPR"), "kind": "expr", "requires": requires + covering[:1],
            "all": [text], "_break": ("incompatible", others[0]) if into else ("perturb", result),
            "_result": result, "_members": others, "_into": into}


def covering_broadcasts(clauses: list[Clause], operands: Iterable[str]) -> list[str]:
    """The ids of the broadcastable clauses over (at least) ``operands``: where they are broken,
    ``broadcast()`` of the operands has no value, so a clause reading it requires one of them."""
    return [c["id"] for c in clauses if c["kind"] == "broadcastable" and set(c["params"]) >= set(operands)]


def empty_tensors(ctx: Context, null_ids: dict[str, list[str]], evidence: list[Evidence]) -> list[Clause]:
    """Error rows "x1、x2或out是空tensor" (coded) and usage notes "不支持空Tensor" (unspecified, for
    tensors no row names): an expr clause ``X.numel > 0`` the generate section breaks with a zero
    dim; "支持空Tensor": a behavior clause over empty cases (and cases draw them)."""
    said: dict[bool, list[tuple[str, Sentence]]] = {True: [], False: []}
    for row in ctx.facts.params:
        if row.name in ctx.tensors:
            for s in row.usage:
                verdict = empty_support(s.text)
                if verdict is not None:
                    said[verdict].append((row.name, s))
                    ctx.used.add(s)
    clauses = _refused_empty(ctx, null_ids, evidence)
    coded = {n for c in clauses for n in c["_not_empty"]}
    for c in clauses:  # a note on a tensor a row names says the same: it joins the row's clause
        notes = [s for n, s in said[False] if n in c["_not_empty"]]
        c["source"] = source([*(e.sentence for e in c["_evidence"]), *notes])
    if said[False]:
        names = list(dict.fromkeys(n for n, _ in said[False] if n not in coded
                                   and not ctx.params[n].get("optional") and expressible(n)))
        if names:
            requires = [cid for cid, params in null_ids.items() if set(params) & set(names)]
            notes = [s for n, s in said[False] if n in names]
            clauses.append({"id": ctx.new_id("EMPTY"), "source": source(notes), "kind": "expr",
                            "requires": requires, "all": [f"{n}.numel > 0" for n in names],
                            "on_violation": "unspecified", "_break": ("zero_dim", names[0]),
                            "_not_empty": names})
    if any(expressible(n) for n, _ in said[True]):
        names = list(dict.fromkeys(n for n, _ in said[True] if expressible(n)))
        clauses.append({"id": ctx.new_id("EMPTY"), "source": source(s for _, s in said[True]),
                        "kind": "behavior", "when": " or ".join(f"{n}.numel == 0" for n in names),
                        "checks": ["status"], "_empty": names})
    return clauses


def _refused_empty(ctx: Context, null_ids: dict[str, list[str]], evidence: list[Evidence]) -> list[Clause]:
    """One coded clause per status over the tensors the rows name (a row naming anything but
    tensors, an int attribute "是空tensor", is not encoded)."""
    groups: dict[str, tuple[list[str], list[Evidence]]] = {}
    for e in evidence:
        names = _members(ctx, e)
        listed = set(IDENT.findall(e.sentence.text)) - {"tensor", "Tensor"}  # "x1Scale", no parameter
        if not names or not listed <= set(names) or not expressible(*names):
            continue
        members, readings = groups.setdefault(e.status, ([], []))
        members += [n for n in names if n not in members]
        readings.append(e)
    clauses = []
    for status, (names, readings) in groups.items():
        names = [t for t in ctx.tensors if t in names]
        required = [n for n in names if not ctx.params[n].get("optional")]
        if not required:
            continue
        requires = [cid for cid, params in null_ids.items() if set(params) & set(names)]
        clauses.append({"id": ctx.new_id("EMPTY"), "kind": "expr", "requires": requires,
                        "all": [ctx.if_given(n, f"{n}.numel > 0") for n in names],
                        "on_violation": status, "_evidence": readings,
                        "_break": ("zero_dim", required[0]), "_not_empty": names})
    return clauses


def break_free_last(clauses: list[Clause]) -> list[Clause]:
    """A broadcastable clause is broken by reshaping its last tensor (generate/breaks.py): one no
    same_shape clause ties goes last where the last is tied, so the break leaves that clause alone
    (broadcasting is symmetric: the order says nothing else)."""
    tied = {p for c in clauses if c["kind"] == "same_shape" for p in c["params"]}
    for c in clauses:
        free = [p for p in c.get("params", []) if p not in tied]
        towards = any(TOWARDS.search(e.sentence.text) for e in c.get("_evidence", []))  # (as above)
        if c["kind"] == "broadcastable" and free and c["params"][-1] in tied and not towards:
            c["params"] = [p for p in c["params"] if p != free[-1]] + [free[-1]]
    return clauses


def flatten(groups: Iterable[list[Clause]]) -> list[Clause]:
    return [c for g in groups for c in g]

"""How drafted same_dtype clauses tie tensor lists (the spec's ``lists`` option, spec/model.py).

A foreach page gives two rows two codes: "x和out的数据类型不一致" (PARAM_INVALID) and "x或out中的
Tensor的数据类型不一致" (TILING_ERROR). Read as one dtype over every element of both lists, the first
would be broken by every case breaking the second, so the second could never be observed: the page
would contradict itself. The reading that keeps both rows reachable is the one drafted here: the
second is one clause ``lists: each`` (within each named list, one dtype) and the first, beside it,
``lists: position`` (x[i] and out[i] of one dtype; the page's "数据类型与入参x的数据类型一致" in
out's row says the same). A case mixing the dtypes within the lists while they still agree position
by position (generate/list_dtypes.py) breaks the second alone; a case giving all of out another
dtype breaks the first alone. Where the page gives both rows one code, the within row joins the
clause tying the lists (one dtype over everything says both) and nothing changes.
"""
from __future__ import annotations

from conformance.draft.context import Clause, Evidence

Group = tuple[set[str], str, list[Evidence]]


def ties(clause: Clause) -> bool:
    """Whether a same_dtype clause ties its parameters to each other (``each`` ties none)."""
    return clause.get("lists") != "each"


def within(groups: list[Group], evidence: list[Evidence], inside: dict[int, list[str]]) -> list[Group]:
    """The ``each`` groups of the within-list rows: the lists a row names that a group of its code
    already ties (with one dtype for all) join that group; the others are one group per row,
    groups of one code sharing a list merged (each [x] and each [x, out] say nothing apart)."""
    out: list[Group] = []
    for e in evidence:
        rest = set()
        for name in inside[id(e)]:
            home = next((g for g in groups if g[1] == e.status and name in g[0]), None)
            if home is None:
                rest.add(name)
            elif e not in home[2]:
                home[2].append(e)
        if rest:
            joined = [g for g in out if g[1] == e.status and g[0] & rest]
            merged = (rest.union(*(g[0] for g in joined)), e.status, [x for g in joined for x in g[2]] + [e])
            out = [g for g in out if g not in joined] + [merged]
    return out


def by_position(clauses: list[Clause], lists: list[str]) -> None:
    """A clause tying lists that an ``each`` clause also names ties them position by position (see
    the module docstring): ``lists: position`` where it names a list."""
    within_lists = {p for c in clauses if not ties(c) for p in c["params"]}
    for c in clauses:
        if ties(c) and set(c["params"]) & within_lists and set(c["params"]) & set(lists) \
                and len(c["params"]) >= 2 and c.get("lists") != "position":
            rest = {k: c.pop(k) for k in list(c) if k not in ("id", "source", "kind", "params")}
            c.update({"lists": "position", **rest})  # (said beside params, as each clauses say it)


def note_home(clauses: list[Clause], group: tuple[str, ...], lists: list[str]) -> Clause | None:
    """The clause a usage note's relation joins: a note tying a list's elements ("该参数中所有Tensor
    的数据类型保持一致") an ``each`` clause on that list, else one tying everything; a note tying
    tensors a clause tying them (by position too: "out与x一致" holds position by position)."""
    if len(group) == 1 and group[0] in lists:
        candidates = [*(c for c in clauses if not ties(c)),
                      *(c for c in clauses if c.get("lists", "all") == "all")]
    else:
        candidates = [c for c in clauses if ties(c)]
    return next((c for c in candidates if set(group) <= set(c["params"])), None)


def lone_within(clauses: list[Clause], group: tuple[str, ...], lists: list[str]) -> bool:
    """A note tying a list's elements where the list is tied to others only by position: it is a
    clause of its own (``each``), which one tying everything would contradict."""
    return len(group) == 1 and group[0] in lists and any(
        c.get("lists") == "position" and group[0] in c["params"] for c in clauses)

"""Clauses joined so each can be broken alone: a rank limit covers the tensors that share the
shape (same_shape, or a broadcast and its operands), and a dtype list is not repeated for a tensor
tied by same_dtype to one with a list as strict. Without this a run cannot break out's rank without
breaking its same_shape with self too (the item would be unsatisfiable)."""
from __future__ import annotations

from collections.abc import Iterable

from conformance.draft.context import Clause, Context


class _Groups:
    """Union-find over parameter names."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            x = self.parent[x]
        return x

    def join(self, names: Iterable[str]) -> None:
        names = list(names)
        for n in names[1:]:
            self.parent[self.find(n)] = self.find(names[0])

    def members(self, x: str, among: list[str]) -> list[str]:
        return [n for n in among if self.find(n) == self.find(x)]


def _shape_groups(clauses: list[Clause]) -> _Groups:
    groups = _Groups()
    for c in clauses:
        if c["kind"] == "same_shape":
            groups.join(c["params"])
        if "_result" in c:  # a broadcast: its rank follows its operands' (all move together)
            groups.join([c["_result"], *c["_members"]])
    return groups


def tie_ranks(ctx: Context, clauses: list[Clause]) -> list[Clause]:
    """Each rank_in clause over the tensors of its shape groups; a clause no stricter than a coded
    one over the same tensors is dropped."""
    groups = _shape_groups(clauses)
    tensors = ctx.tensors
    for c in clauses:
        if c["kind"] == "rank_in":
            c["params"] = [t for t in tensors if any(t in groups.members(p, tensors) for p in c["params"])]
    limits = ("min", "max", "ranks", "same")
    kept: list[Clause] = []
    for c in clauses:
        same = [k for k in kept if k["kind"] == "rank_in" == c["kind"]
                and {x: k.get(x) for x in limits} == {x: c.get(x) for x in limits}
                and set(c["params"]) <= set(k["params"])]
        if same and c["on_violation"] == "unspecified":
            continue
        twin = next((k for k in kept if _twins(k, c)), None)
        if twin is not None:  # one row the table's ties split: one clause over the shape group, its
            # limits only (the tie, "维度与self一致", is the table's: no row's code says it)
            twin["_evidence"] = [*twin.get("_evidence", []), *c.get("_evidence", [])]
            twin.pop("same", None)
            continue
        kept.append(c)
    return _implied_ranks(kept)


def _twins(k: Clause, c: Clause) -> bool:
    """Rank clauses of one row and limits, ``c`` over tensors ``k`` names."""
    return (k["kind"] == "rank_in" == c["kind"] and set(c["params"]) <= set(k["params"])
            and all(k.get(x) == c.get(x) for x in ("min", "max", "ranks", "on_violation"))
            and k["source"]["quote"] == c["source"]["quote"])


_RANKS = range(0, 9)  # the aclnn rank limit


def _allowed(c: Clause) -> set[int]:
    return {r for r in _RANKS if c.get("min", 0) <= r <= c.get("max", 8) and r in c.get("ranks", _RANKS)}


def _implied_ranks(clauses: list[Clause]) -> list[Clause]:
    """An unspecified rank limit (the table's) says nothing more for the tensors of a coded
    clause at least as strict ("self的维度不为3维或者4维" under the table's 3-4): they leave it,
    else breaking the coded clause breaks it too. One left without tensors goes."""
    coded = [c for c in clauses if c["kind"] == "rank_in" and c["on_violation"] != "unspecified"
             and not c.get("same")]
    out = []
    for c in clauses:
        if c["kind"] == "rank_in" and c["on_violation"] == "unspecified" and not c.get("same"):
            covered = {p for k in coded if _allowed(k) <= _allowed(c) for p in k["params"]}
            c["params"] = [p for p in c["params"] if p not in covered]
            if not c["params"]:
                continue
        out.append(c)
    return out


def tie_dtypes(clauses: list[Clause]) -> list[Clause]:
    """A tensor tied (same_dtype) to one whose dtype_in clause lists, on every product, no more than
    its own moves to that clause (a dtype outside the stricter list breaks both clauses, the tie
    making both tensors have it); a clause left without tensors goes."""
    groups = _Groups()
    for c in clauses:
        if c["kind"] == "same_dtype" and c.get("lists") != "each":  # (each: no tie between lists)
            groups.join(c["params"])
    dtype = [c for c in clauses if c["kind"] == "dtype_in" and "only_if" not in c]  # (not: a condition)
    for c in dtype:
        for p in list(c["params"]):
            home = next((d for d in dtype if d is not c and d["params"] and _stricter(d, c)
                         and any(groups.find(q) == groups.find(p) for q in d["params"])), None)
            if home is not None:
                c["params"].remove(p)
                home["params"].append(p)
                home["source"] = {"doc": "upstream",
                                  "quote": f"{home['source']['quote']} / {c['source']['quote']}",
                                  "where": f"{home['source']['where']}; {c['source']['where']}"}
                home.setdefault("_evidence", []).extend(c.get("_evidence", []))
    return [c for c in clauses if c["kind"] != "dtype_in" or c["params"]]


def _stricter(d: Clause, c: Clause) -> bool:
    """d lists no dtype c does not, on any product, and keeps c's code (if c has one)."""
    narrower = all(set(d["per_product"][p]) <= set(v) for p, v in c["per_product"].items())
    return narrower and (d["on_violation"] != "unspecified" or c["on_violation"] == "unspecified")

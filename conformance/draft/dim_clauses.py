"""Error rows about the dimensions of tensors, beyond a rank limit: tensors that must share one
rank ("self、index的维度数不一致") and tensors with a zero-sized dimension ("（x1、gamma）的任意一个维度
等于0", the empty tensor said by its dims).

The phrasings are matched whole (the sentence is nothing but the tensors and the rule), so a
sentence naming a particular dimension ("NC维度不一致", "在dim维度上", "最后一维") or joining another
rule ("维度或尺寸不一致") is not read here and stays for review. A same-rank row becomes a rank_in
clause marked ``same`` (breaks.py gives its first tensor one dimension more; "维度不一致" read as
"shape differs" is broken by that case too, so either reading of the word holds); a zero-dim row
is read as the empty-tensor pattern (relations.empty_tensors builds its clause).
"""
from __future__ import annotations

from conformance.draft.broadcast_into import KEY
from conformance.draft.context import Clause, Context, Evidence, source
from conformance.draft.sentence_limits import IDENT


def same_rank(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """A rank_in clause marked ``same`` per status over the tensors its rows name; a row naming
    anything but tensors (an int array's "维度") is left out."""
    groups: dict[str, tuple[list[str], list[Evidence]]] = {}
    for e in evidence:
        named = [t for t in ctx.tensors if t in e.params]
        words = {w.lower() for w in IDENT.findall(e.sentence.text)}
        if len(named) < 2 or len(words) != len(named):
            continue
        members, readings = groups.setdefault(e.status, ([], []))
        members += [n for n in named if n not in members]
        readings.append(e)
    return [{"id": ctx.new_id("RANK"), "source": source(e.sentence for e in readings), "kind": "rank_in",
             "params": [t for t in ctx.tensors if t in names], "min": 0, "same": True,
             "on_violation": status, "_evidence": readings, "_same_rank": True}
            for status, (names, readings) in groups.items()]


_LIMITS = ("min", "max", "ranks")


def tie_same_ranks(clauses: list[Clause]) -> list[Clause]:
    """Rank limits over the tensors a same-rank row ties (run after merges.tie_ranks, which adds
    the tensors sharing their shapes): a limit on one of them holds for all
    (any other rank breaks the tie), and a case breaking the limit must move them together, or it
    breaks the tie too and neither clause can be tested alone. Limits grown alike are joined."""
    broadcasting = {t for c in clauses for t in (c["params"] if c["kind"] == "broadcastable" else
                                                 [c["_result"], *c["_members"]] if "_result" in c else
                                                 [c[KEY][0], *c[KEY][1]] if KEY in c else [])}
    # a tie reaching a broadcasting tensor (tie_ranks joins a broadcast's operands to the tensors the
    # row names) would give operands one rank they need not share: left out, the row to review
    clauses = [c for c in clauses if not (c.get("_same_rank") and set(c["params"]) & broadcasting)]
    ties = [c for c in clauses if c.get("_same_rank")]
    for tie in ties:
        for c in clauses:
            if c["kind"] == "rank_in" and c is not tie and set(c["params"]) & set(tie["params"]):
                c["params"] = list(dict.fromkeys([*c["params"], *tie["params"]]))
                if c.get("same") and set(c["params"]) <= set(tie["params"]):
                    del c["same"]  # the row's clause says it (the table's tie is the same one)
    kept: list[Clause] = []
    for c in clauses:
        twin = next((k for k in kept if c["kind"] == "rank_in" == k["kind"] and not c.get("_same_rank")
                     and _key(k) == _key(c)), None)
        if twin is None:
            kept.append(c)
            continue
        twin["_evidence"] = [*twin.get("_evidence", []), *c.get("_evidence", [])]
        twin["source"] = {"doc": "upstream", **{k: _joined(twin["source"][k], c["source"][k], sep)
                                                for k, sep in (("quote", " / "), ("where", "; "))}}
    return kept


def free_first(clauses: list[Clause]) -> list[Clause]:
    """A same-rank tie is broken by giving its first tensor one dimension more (breaks.py): a
    tensor no same_shape clause ties goes first, so the break leaves those clauses alone ("self、
    index、src的维度数不一致" where out has self's shape: index moves, not self)."""
    tied = {p for c in clauses if c["kind"] == "same_shape" for p in c["params"]}
    for c in clauses:
        free = [p for p in c["params"] if p not in tied] if c.get("same") else []
        if free and c["params"][0] in tied:
            c["params"] = [free[0], *(p for p in c["params"] if p != free[0])]
    return clauses


def _key(c: Clause) -> tuple[object, ...]:
    return (frozenset(c["params"]), c["on_violation"], bool(c.get("same")),
            *(tuple(c[k]) if isinstance(c.get(k), list) else c.get(k) for k in _LIMITS))


def _joined(a: str, b: str, sep: str) -> str:
    return sep.join(dict.fromkeys([*a.split(sep), *b.split(sep)]))

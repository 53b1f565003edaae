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

import re
from collections.abc import Callable

from conformance.draft.context import Clause, Context, Evidence, source
from conformance.draft.sentence_limits import IDENT, Limits, rank_limits, rx

_NAMES = (r"[（(]?\s*[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|,|，|和|与|或|以及)\s*[A-Za-z_][A-Za-z0-9_]*)+"
          r"\s*[)）]?")
_ONE = r"[A-Za-z_][A-Za-z0-9_]*"
_RANK_WORD = r"(?:维度数量|维度数|维数|维度)"
_DIFFER = r"(?:不一致|不同|不相同|不相等)"
_END = r"[。.]?$"
# "self、index的维度数不一致", "（x1、x2、yOut）的维数不一致", "self和target维度不一致",
# "gradOutput的维度与self不一致", "self与out的维度不一致"
SAME_RANK = rx(rf"^(?:参数|输入)?\s*{_NAMES}\s*的?\s*{_RANK_WORD}\s*{_DIFFER}{_END}|"
               rf"^(?:参数|输入)?\s*{_ONE}\s*的\s*{_RANK_WORD}\s*(?:与|和)\s*{_ONE}\s*"
               rf"(?:的\s*{_RANK_WORD})?\s*{_DIFFER}{_END}")
# "（x1、gamma、meanOut）的任意一个维度等于0", "x的某一维不大于0" (a dim is never negative), "传入tensor中
# 任意维度为零的均不满足要求" (every tensor); not "x的shape的…" (the empty-tensor clause takes only
# sentences naming nothing but tensors); patterns.match has made "某一维" "某1维"
ZERO_DIM = rx(rf"^(?:传入的|输入的?)?\s*(?:{_NAMES}|{_ONE})\s*(?:的|中)?\s*"
              r"(?:任意一个|任意|任[一1]|某[一1]个?|某个)\s*(?:维度|维|轴)\s*(?:的值|的大小|大小)?\s*"
              rf"(?:等于|为|是|不大于|小于等于)\s*(?:0|零){_END}|"
              rf"^传入的?\s*tensor中任意维度为(?:0|零)的均不满足要求{_END}")

# "self和out的shape超过8维，或者两者shape不一致", "input和output的shape不一致，或者shape的维度大于8维或者
# 小于2维": a rank limit and equal shapes (rank_in and same_shape clauses); "input、angle、out维度超过
# 8维或不一致": a rank limit and one rank (rank_in, and rank_in marked same)
_OR = r"\s*[，,]?\s*(?:或者|或)\s*"
RANK_OR_SHAPE = rx(rf"^{_NAMES}\s*的\s*shape\s*(?P<a>[^，,]*维){_OR}(?:两者|二者)?\s*(?:的)?\s*shape\s*"
                   rf"{_DIFFER}{_END}|^{_NAMES}\s*的\s*shape\s*{_DIFFER}{_OR}shape的(?P<b>维度[^，,]*){_END}")
RANK_OR_RANKS = rx(rf"^{_NAMES}\s*的?\s*(?P<a>{_RANK_WORD}\s*(?:超过|大于)\s*\d+\s*维?){_OR}{_DIFFER}{_END}")


def rank_part_limits(regex: re.Pattern[str]) -> Callable[[str], Limits | None]:
    """The limits of the rank rule ``regex`` finds beside another rule (None: none read)."""
    def limits(text: str) -> Limits | None:
        m = regex.search(text)
        part = next((v for v in m.groupdict().values() if v), None) if m else None
        return rank_limits(part) if part else None
    return limits


def same_rank_limits(text: str) -> Limits | None:
    """{} for a same-rank sentence naming two tensors or more (None: not one)."""
    return {} if SAME_RANK.search(text) and len(set(IDENT.findall(text))) >= 2 else None


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
                                                 [c["_result"], *c["_members"]] if "_result" in c else [])}
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


def _key(c: Clause) -> tuple[object, ...]:
    return (frozenset(c["params"]), c["on_violation"], bool(c.get("same")),
            *(tuple(c[k]) if isinstance(c.get(k), list) else c.get(k) for k in _LIMITS))


def _joined(a: str, b: str, sep: str) -> str:
    return sep.join(dict.fromkeys([*a.split(sep), *b.split(sep)]))

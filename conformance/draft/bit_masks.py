"""A dropout mask's size: a usage note on a UINT8 mask tensor M saying it holds one bit per element
of a tensor X, padded to 128 bits ("shape需要为(align(gradOutput的元素个数,128)/8)", "元素个数需要为
(align(self的元素个数,128)/8)"; align(n, 128) rounds n up to a multiple of 128), which settles the
row "mask的shape不满足条件" naming M alone (shape_notes.py). ``expr`` clauses, and M's draw.

- "shape需要为(…)": ``len(M.shape) == 1 and M.shape[0] == (X.numel + 127) // 128 * 16``;
- "元素个数需要为(…)": ``M.numel == (X.numel + 127) // 128 * 16`` (any shape holding that many).

Valid cases draw M as that one dimension (M was a guess drawn like X, which a kernel refuses);
the break, one byte fewer (``abs(n - 1)``: 15 where 16 are needed, 1 where X is empty and none
are), so a kernel checking either the exact size or only that enough bytes came refuses it. A
mask tied to other tensors' shapes, or an X not drawn by a draw of its own, is left for review.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review
from conformance.draft.numel_ties import fresh
from conformance.draft.sentence_limits import rx
from conformance.draft.shape_draws import Shapes
from conformance.draft.tie_breaks import drop_guesses, settle
from conformance.draft.words import NAME

KIND = "bit_mask"
_NOTE = rx(rf"^(?P<form>shape|元素个数)\s*(?:需要|需|必须|应)?\s*为\s*[(（]\s*align\s*[(（]\s*(?P<x>{NAME})"
           r"\s*的\s*元素个数\s*[,，]\s*128\s*[)）]\s*/\s*8\s*[)）]\s*(?:$|[，,；;。.])")


def note(text: str) -> tuple[str, str] | None:
    """(form: "shape" or "元素个数", X) of a bit-mask size note; None: not one."""
    m = _NOTE.search(text)
    return (m["form"], m["x"]) if m else None


def stated(ctx: Context) -> list[tuple[str, tuple[str, ...]]]:
    """(KIND, (M, X)) for each plain tensor M whose usage notes give its size from tensor X's."""
    plain = [t for t in ctx.tensors if ctx.params[t]["kind"] == "tensor"]
    return [(KIND, (m, said[1])) for m in plain for said in map(note, _notes(ctx, m))
            if said is not None and said[1] in plain and said[1] != m]


def _notes(ctx: Context, name: str) -> list[str]:
    row = ctx.rows.get(name)
    return [s.text for s in row.usage] if row is not None else []


def _size(x: str) -> str:
    return f"({x} + 127) // 128 * 16"


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """One expr clause per reading (M, X) shape_notes.py made from a row naming M."""
    out = []
    for e in evidence:
        m, x = e.params
        said = [s for s in ctx.rows[m].usage if (n := note(s.text)) is not None and n[1] == x]
        if not said or not expressible(m, x):
            continue
        n = _size(f"{x}.numel")
        text = f"len({m}.shape) == 1 and {m}.shape[0] == {n}" if note(said[0].text)[0] == "shape" \
            else f"{m}.numel == {n}"
        for t in (x, m):
            text = ctx.if_given(t, text)
        ctx.used.update(said)
        out.append({"id": ctx.new_id("MASK"), "source": source([e.sentence, said[0]]), "kind": "expr",
                    "requires": [cid for cid, params in null_ids.items() if {m, x} & set(params)],
                    "all": [text], "on_violation": e.status, "_evidence": [e], "_mask": (m, x)})
    return out


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, where: Callable[[str], Any]) -> set[str]:
    """Each mask's draw and its clause's break; the masks now drawn from the rows (no longer
    guesses). A mask that cannot be drawn so: its clause removed, its row reviewed."""
    mine = [c for c in clauses_ if "_mask" in c]
    before = set(args.values())
    drawn: dict[str, str] = {}
    for c in mine:
        m, x = c["_mask"]
        base = args.get(x)
        if m in drawn or s.members(m) != [m] or not isinstance(base, str) or base not in draws:
            continue
        drawn[m] = fresh(draws, f"{m}_bits_shape")
        draws[drawn[m]] = {"expr": f"[{_size(f'prod({base})')}]"}
        s.ranges[drawn[m]] = (1, 1)
        args[m] = drawn[m]
    settle(clauses_, mine, lambda c: _break(c["_mask"], args, drawn), review,
           lambda c: where(c["_mask"][0]))
    drop_guesses(draws, args, clauses_, before)
    return set(drawn)


def _break(tie: tuple[str, str], args: dict[str, Any], drawn: dict[str, str]) -> dict[str, Any] | None:
    m, x = tie
    if m not in drawn:
        return None
    return {drawn[m]: {"expr": f"[abs({_size(f'prod({args[x]})')} - 1)]"}}


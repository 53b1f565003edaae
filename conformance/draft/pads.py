"""Pad operators' rows: a padding value at or above the size of the dim it pads ("padding的数值大于等于
self对应维度的值") and the padded tensor's shape ("out后两维度的值不等于self后两维度的值加对应padding",
"gradOutput shape需要与reflection_pad2d正向传播的output一致"): ``expr`` clauses, and the draws that keep
them in valid cases (padding below the dims it pads, the padded tensor the base's shape plus it).

Which dim a pair of padding values pads is read from the padding row of the parameter table only:
"长度为4，数值依次代表左右上下需要填充的值" (left/right the last dim, top/bottom the second last,
front/back the third last) or "padding前两个数值需小于self最后一维度的数值，后两个数值需小于self倒数第二
维度的数值". A row saying neither leaves the rows for review: the error rows alone do not say the
order. Both rules are drafted together or not at all: padding drawn below the dims needs the padded
tensor drawn with it, and a padded shape needs the bound on padding to draw valid values.
The phrasings: dim_phrasings.PAD_LIMIT, PAD_SHAPE.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import ParamRow, Review, Sentence
from conformance.draft.shape_draws import Shapes, drop_unused
from conformance.draft.words import NAME

LIMIT, SHAPE = "pad_limit", "pad_shape"
_LENGTH = re.compile(r"长度为\s*([246])(?!\d)")
_ORDER = re.compile(r"依次代表\s*(左右)(?:两边)?\s*(上下)?\s*(前后)?")
_BOUND = re.compile(rf"(前两|中间两|后两|两)(?:个|维度的)?数值[^，,。；]*?小于\s*({NAME})\s*的?\s*"
                    r"(最后一|倒数第二|倒数第三)维")
_FROM_END = {"最后一": 0, "倒数第二": 1, "倒数第三": 2}


def pairs(row: ParamRow | None) -> tuple[int, str | None, list[Sentence]] | None:
    """(the number of padding pairs, the tensor the row bounds them by, the sentences saying it)
    when the padding row says which dim each pair pads, pair i the (i+1)-th dim from the end."""
    if row is None:
        return None
    said = [row.description, *row.usage]
    text = " ".join(s.text for s in said)
    length = _LENGTH.search(text)
    if length is None:
        return None
    k = int(length[1]) // 2
    order = _ORDER.search(text)
    bounds = _BOUND.findall(text)
    pair_of = {"前两": 0, "两": 0 if k == 1 else None, "中间两": 1 if k == 3 else None, "后两": k - 1}
    bounded = (bounds and len({t for _, t, _ in bounds}) == 1
               and {pair_of[o] for o, _, _ in bounds} == set(range(k))
               and all(pair_of[o] == _FROM_END[d] for o, _, d in bounds))
    if not bounded and not (order and sum(1 for g in order.groups() if g) == k):
        return None
    used = [s for s in said if _ORDER.search(s.text) or _BOUND.search(s.text)]
    return k, bounds[0][1] if bounded else None, used


def clauses(ctx: Context, limit_ev: list[Evidence], shape_ev: list[Evidence], vague: list[Evidence],
            null_ids: dict[str, list[str]]) -> list[Clause]:
    """The limit clause and one shape clause per padded tensor, for each padding whose row says
    its order and whose rows name one base tensor; a vague row on a padded output alone ("out的
    shape与实际输出shape不匹配") adds its other dims (``_lead``)."""
    out: list[Clause] = []
    for p in ctx.of_kind("int_array"):
        read = pairs(ctx.rows.get(p))
        if read is None or not expressible(p) or ctx.params[p].get("optional"):
            continue
        k, row_tensor, said = read
        lim = [e for e in limit_ev if e.limits["pad"] == p and e.limits.get("pairs", k) == k]
        shp = [e for e in shape_ev if e.limits.get("pad", p) == p and e.limits.get("pairs", k) == k]
        bases = {e.limits["tensor"] for e in lim + shp if "tensor" in e.limits} | (
            {row_tensor} if row_tensor else set())
        padded = list(dict.fromkeys(e.limits["padded"] for e in shp))
        if len(bases) != 1 or not shp or not (lim or row_tensor):
            continue
        t = bases.pop()
        if not all(_plain(ctx, x) for x in (t, *padded)) or t in padded:
            continue
        ctx.used.update(said)
        guard = f"len({p}) != {2 * k} or {t}.rank < {k}"
        if lim:
            text = [f"{guard} or {p}[{2 * i}] < {t}.shape[{-1 - i}] and "
                    f"{p}[{2 * i + 1}] < {t}.shape[{-1 - i}]" for i in range(k)]
            out.append(_clause(ctx, lim, said, text, null_ids, {p, t}) | {"_pad_limit": p})
        for o in padded:
            mine = [e for e in shp if e.limits["padded"] == o]
            shape = _clause(ctx, mine, said, _shape_text(guard, p, t, o, k, mine), null_ids, {p, t, o})
            out.append(shape | {"_pad": (p, t, o, k)})
            rows = [e for e in vague if e.params == (o,) and e.status == shape["on_violation"]
                    and not any(m.limits.get("forward") for m in mine)]
            out += _lead(ctx, shape, rows, guard, t, o, k)
    return out


def _lead(ctx: Context, shape: Clause, vague: list[Evidence], guard: str, t: str, o: str,
          k: int) -> list[Clause]:
    """A vague row on the padded output: its shape the forward output's, the padded dims (the
    shape clause's) and the others (this clause's: the rank and the unpadded dims the base's);
    the row counts while both stand."""
    if not vague:
        return []
    lead = {"id": ctx.new_id("PAD"), "source": source([e.sentence for e in vague]), "kind": "expr",
            "requires": shape["requires"], "all": [f"{guard} or {o}.rank == {t}.rank and "
                                                   f"{o}.shape[:-{k}] == {t}.shape[:-{k}]"],
            "on_violation": shape["on_violation"], "_evidence": vague, "_lead": shape["id"]}
    shape["_evidence"] = [*shape["_evidence"], *vague]
    for e in vague:
        shape.setdefault("_with", {})[id(e)] = [lead["id"]]
        lead.setdefault("_with", {})[id(e)] = [shape["id"]]
    return [lead]


def _plain(ctx: Context, name: str) -> bool:
    p = ctx.params.get(name, {})
    return p.get("kind") == "tensor" and not p.get("optional") and expressible(name)


def _clause(ctx: Context, ev: list[Evidence], said: list[Sentence], text: list[str],
            null_ids: dict[str, list[str]], names: set[str]) -> Clause:
    return {"id": ctx.new_id("PAD"), "source": source([*(e.sentence for e in ev), *said]), "kind": "expr",
            "requires": [cid for cid, params in null_ids.items() if set(params) & names],
            "all": text, "on_violation": ev[0].status, "_evidence": ev}


def _shape_text(guard: str, p: str, t: str, o: str, k: int, ev: list[Evidence]) -> list[str]:
    """The padded dims (and, for a forward output's shape, the other dims and the rank too)."""
    dims = [f"{o}.shape[{-1 - i}] == {t}.shape[{-1 - i}] + {p}[{2 * i}] + {p}[{2 * i + 1}]" for i in range(k)]
    if any(e.limits.get("forward") for e in ev):
        return [f"{guard} or {o}.rank == {t}.rank and {o}.shape[:-{k}] == {t}.shape[:-{k}]",
                *(f"{guard} or {o}.rank != {t}.rank or {d}" for d in dims)]
    return [f"{guard} or {o}.rank < {k} or {d}" for d in dims]


def resolve(s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses_: list[Clause],
            review: Review, draw_of: Callable[[str], str], where: Callable[[str], Any]) -> set[str]:
    """The padding drawn below the dims it pads, each padded tensor the base's shape plus it, and
    the clauses' breaks; a pair whose base is not a shape draw of enough rank goes for review.
    Returns the paddings drawn (no longer guesses)."""
    drawn: set[str] = set()
    for c in [c for c in clauses_ if "_pad" in c]:
        p, t, o, k = c["_pad"]
        base = args.get(t)
        members = s.members(o)
        if (not isinstance(base, str) or "shape" not in draws.get(base, {}) or s.ranges[base][0] < k
                or t in members):
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"].split(" / ")[0], where(o)), "padded shape")
            continue
        pad = draw_of(p)
        draws[pad] = {"below": "[" + ", ".join(f"{base}[{-1 - i}]" for i in range(k) for _ in (0, 1)) + "]"}
        dims = ", ".join(f"{base}[{i - k}] + {pad}[{2 * (k - 1 - i)}] + {pad}[{2 * (k - 1 - i) + 1}]"
                         for i in range(k))
        name = f"{o}_padded_shape"
        draws[name] = {"expr": f"{base}[:-{k}] + [{dims}]"}
        s.ranges[name] = s.ranges[base]
        old = args.get(o)
        for m in members:
            args[m] = name
            if m in s.guessed:
                s.guessed.remove(m)
        c["break"], c["_pad_base"] = {name: {"mode": "perturb"}}, (base, k)
        for lead in [d for d in clauses_ if d.get("_lead") == c["id"] and s.ranges[base][1] > k]:
            rest = draws[name]["expr"][len(base) + 1:]  # (":-k] + [padded dims]": its first dim one more)
            lead["break"] = {name: {"expr": f"[{base}[0] + 1] + {base}[1{rest}"}}
        drawn.add(p)
        drop_unused(draws, args, clauses_, old)
    for c in [c for c in clauses_ if "_lead" in c and "break" not in c]:
        clauses_.remove(c)
        review(Sentence(c["source"]["quote"], where(c["_evidence"][0].params[0])), "vague shape")
    for c in [c for c in clauses_ if "_pad_limit" in c]:
        if c["_pad_limit"] in drawn:
            c["break"] = {draw_of(c["_pad_limit"]): {"mode": "above"}}
        else:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"].split(" / ")[0], where(c["_pad_limit"])), "padding limit")
    return drawn


def spare_padded_dims(s: Shapes, clauses_: list[Clause]) -> None:
    """A zero-dim break of the base tensor (an empty-tensor clause) kept off the dims padding
    pads at the highest rank drawn: a zero there breaks the padding limit too (0 >= 0), and a
    clause no case breaks alone cannot be tested."""
    padded = dict(c["_pad_base"] for c in clauses_ if "_pad_base" in c)
    for c in clauses_:
        for draw, how in c.get("break", {}).items():
            if draw in padded and how.get("mode") == "zero_dim" and how.get("at"):
                spare = [i for i in how["at"] if i < s.ranges[draw][1] - padded[draw]]
                how["at"] = spare or how["at"]

"""Pooling rows bounding each padding value by the kernel size at its place: "padding的数值中存在
小于0或者大于kernelSize/2的值", "padding的数值中存在小于0或者大于kernelSize的数值", "属性padding超过kernelSize
对应位置的1/2，例如…". An ``expr`` clause element by element, where an array of one element stands for
every axis (the pages' "长度为1或2"): zipping each array repeated the other's length pairs every
element with its own place, whatever the two lengths the page allows.

For integers p > k/2 is 2p > k, so "kernelSize/2" needs no division. Valid cases draw padding all
zeros (kernels are drawn all ones, generate_section), which holds for any kernel the other clauses
draw; the break makes the last element one past the bound (and -1 where the row says 小于0 and no
other clause says padding's sign), its length as drawn. The clause requires the arrays' length
clauses: their breaks draw runs of ones, which a kernel of other length may not hold.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Review, Sentence
from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import NAME

KIND = "kernel_pad"
_SUBJECT = rf"^(?:属性|参数|传入的)?\s*({NAME})"
_END = r"[。.]?$"
# "padding的数值中存在小于0或者大于kernelSize/2的值", "padding中存在小于0或者大于kernelSize/2的数值"
_SIDES = rx(rf"{_SUBJECT}\s*(?:的数值中|中的数值中|的数值|中)?\s*存在\s*(小于\s*0\s*(?:或者|或)\s*)?"
            rf"大于\s*({NAME})\s*(/\s*2)?\s*(?:的(?:数值|值))?{_END}")
# "属性padding超过kernelSize对应位置的1/2，例如paddingH=2，kernelSizeH=2，paddingH>kernelSizeH*1/2"
_HALF = rx(rf"{_SUBJECT}\s*超过\s*({NAME})\s*对应位置的?\s*1\s*/\s*2(?:\s*[，,]\s*例如[^。]*)?{_END}")
KERNEL_PAD = rx(f"{_SIDES.pattern}|{_HALF.pattern}")


def kernel_pad_limits(text: str) -> Limits | None:
    """{"pad", "kernel", "half": bound k/2 (else k), "negative": a negative value is said too}."""
    if m := _SIDES.search(text):
        return {"pad": m[1], "kernel": m[3], "half": bool(m[4]), "negative": bool(m[2])}
    if m := _HALF.search(text):
        return {"pad": m[1], "kernel": m[2], "half": True, "negative": False}
    return None


def _array(ctx: Context, name: str) -> str | None:
    """The page's int array the row names ("属性padding" of a page whose array is paddings)."""
    arrays = ctx.of_kind("int_array")
    found = name if name in arrays else f"{name}s" if f"{name}s" in arrays else None
    return found if found and expressible(found) and not ctx.params[found].get("optional") else None


def _lengths_of(c: Clause) -> set[str]:
    """The int arrays whose length the clause states (its break changes that length)."""
    said = set(c.get("_lengths", ((), ()))[0]) | ({c["_longer"]} if "_longer" in c else set())
    return said | (set(c["params"]) if c["kind"] == "length" else set())


def clauses(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]],
            built: list[Clause]) -> list[Clause]:
    out = []
    for e in evidence:
        pad, kernel = _array(ctx, e.limits["pad"]), _array(ctx, e.limits["kernel"])
        if pad is None or kernel is None or pad == kernel or {"p", "k"} & set(ctx.params):
            continue
        signs = [c["_element_sign"][1] for c in built if c.get("_element_sign", ("",))[0] == pad]
        if any(bad != -1 for bad in signs):  # another rule keeps padding off 0: drawn zeros break it
            continue
        negative = e.limits["negative"] and not signs  # (else the sign clause says it, broken alone)
        low = "0 <= p and " if negative else ""
        high = "2 * p <= k" if e.limits["half"] else "p <= k"
        text = f"all({low}{high} for p, k in zip({pad} * len({kernel}), {kernel} * len({pad})))"
        requires = [cid for cid, params in null_ids.items() if {pad, kernel} & set(params)]
        requires += [c["id"] for c in built if _lengths_of(c) & {pad, kernel}]
        out.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                    "requires": requires, "all": [text], "on_violation": e.status, "_evidence": [e],
                    "_kernel_pad": (pad, kernel, e.limits["half"], negative)})
    return out


def _ones(draw: dict[str, Any] | None) -> int | None:
    """The length of an array drawn as a run of ones ("[1]", "[1] * 3"), else None."""
    m = re.fullmatch(r"\[1\](?: \* (\d+))?", (draw or {}).get("expr", ""))
    return (int(m[1]) if m[1] else 1) if m else None


def resolve(draws: dict[str, Any], clauses_: list[Clause], draw_of: Callable[[str], str],
            review: Review, where: Callable[[str], Any]) -> None:
    """Padding drawn all zeros and each clause's break; a clause whose arrays are not drawn as
    runs of ones goes for review. Runs after the element and length breaks, which it keeps valid
    elsewhere: an element break of padding ("[1] * (n - 1) + [-1]") gets zeros before its element."""
    for c in [c for c in clauses_ if "_kernel_pad" in c]:
        pad, kernel, half, negative = c["_kernel_pad"]
        n, m = _ones(draws.get(draw_of(pad))), _ones(draws.get(draw_of(kernel)))
        if n is None or m is None:
            clauses_.remove(c)
            review(Sentence(c["source"]["quote"], where(pad)), "padding within the kernel")
            continue
        draws[draw_of(pad)] = {"expr": f"[0] * {n}" if n != 1 else "[0]"}
        for d in clauses_:
            how = d.get("break", {}).get(draw_of(pad), {})
            if d is not c and str(how.get("expr", "")).startswith("[1] * ("):
                how["expr"] = "[0]" + how["expr"][len("[1]"):]
        above = 1 if half else 2  # one past k/2 (or k) for a kernel of ones
        c["break"] = {draw_of(pad): {"sampled": [[0] * (n - 1) + [b] for b in (above, -1)[:1 + negative]]}}

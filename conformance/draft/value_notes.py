"""A row saying an attribute's value is wrong without saying how ("p的取值不满足要求") where the
attribute's own usage note gives its sign ("取值大于等于0", "取值大于0", "数值为非负数"): the note's sign
as an ``expr`` clause with the row's code (attr_clauses.py builds it, as for "p小于0"), quoting both.
A float or host-scalar attribute only (an int's values are attr_clauses.value_in's), and one such
note (two say more than a sign)."""
from __future__ import annotations

from dataclasses import replace

from conformance.draft import attr_clauses
from conformance.draft.context import Clause, Context, Evidence, source
from conformance.draft.sentence_limits import rx

_NOTE = rx(r"^(?:取值|数值|值)\s*(?:需要|需|必须)?\s*(?P<op>大于等于|不小于|大于)\s*0(?:\.0+)?\s*[。.]?$|"
           r"^(?:取值|数值|值)\s*(?:需要|需|必须)?\s*为\s*(?P<word>非负数|正数)\s*[。.]?$")


def clauses(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """A sign clause per vague value row on a float or scalar attribute whose note gives its sign."""
    out = []
    for e in evidence:
        if not e.limits.get("enumerated") or len(e.params) != 1:
            continue
        (name,) = e.params
        row = ctx.rows.get(name)
        notes = [(s, m) for s in (row.usage if row is not None else ()) if (m := _NOTE.search(s.text))]
        if name not in ctx.of_kind("float", "scalar") or len(notes) != 1:
            continue
        note, m = notes[0]
        positive = m["op"] == "大于" or m["word"] == "正数"
        for c in attr_clauses.sign(ctx, [replace(e, kind="sign", limits={"positive": positive})]):
            ctx.used.add(note)
            out.append({**c, "source": source([e.sentence, note]), "_evidence": [e]})
    return out

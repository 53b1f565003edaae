"""A row saying an attribute's value is wrong without saying how ("p的取值不满足要求") where the
attribute's own usage note gives its sign ("取值大于等于0", "取值大于0", "该值必须是非负的") or its one
value ("目前仅支持取值为0"): the note's rule as an ``expr`` clause with the row's code (attr_clauses.py
and value_rows.py build them, as for "p小于0" and "threshold不等于0"), quoting both. A float or
host-scalar attribute only (an int's values are attr_clauses.value_in's), and one such note (two
say more)."""
from __future__ import annotations

from dataclasses import replace

from conformance.draft import attr_clauses, value_rows
from conformance.draft.context import Clause, Context, Evidence, source
from conformance.draft.sentence_limits import rx

_NOTE = rx(r"^(?:取值|数值|值)\s*(?:需要|需|必须)?\s*(?P<op>大于等于|不小于|大于)\s*0(?:\.0+)?\s*[。.]?$|"
           r"^(?:该值|取值|数值|值)\s*(?:需要|需|必须)?\s*(?:为|是)\s*(?P<word>非负数|正数|非负的|正的)\s*[。.]?$|"
           r"^(?:目前|当前)?\s*仅支持\s*(?:取值)?\s*(?:为)?\s*(?P<only>-?\d+)(?:\.0+)?\s*[。.]?$")


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
        ctx.used.add(note)
        if m["only"] is not None:
            made = [value_rows.fixed_value(ctx, e, name, int(m["only"]))]
        else:
            positive = m["op"] == "大于" or m["word"] in ("正数", "正的")
            made = attr_clauses.sign(ctx, [replace(e, kind="sign", limits={"positive": positive})])
        out += [{**c, "source": source([e.sentence, note]), "_evidence": [e]} for c in made]
    return out

"""Clauses on the non-tensor parameters: value_in (an int attribute's enumerated values), a
dimension of a tensor (dim within its rank: an ``expr`` clause), a sign (n >= 0), an int array's
length. Their codes come from the error rows; values the usage notes list without a row are
``unspecified``."""
from __future__ import annotations

import re

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.dim_range_phrasings import letter_is, letter_range
from conformance.draft.facts import Review, Sentence
from conformance.draft.numel_phrasings import ELEMENTS
from conformance.draft.string_values import StringValues, string_values
from conformance.draft.usage import enumeration, enumeration_lines
from conformance.draft.value_rows import length_bound
from conformance.draft.words import NAME


def attribute_values(ctx: Context) -> dict[str, tuple[dict[int, str], Sentence]]:
    """Each int attribute's enumerated values from its usage notes (marking the sentence used)."""
    out = {}
    for name in ctx.of_kind("int"):
        row = ctx.rows.get(name)
        usage = row.usage if row is not None else ()
        for s in usage:
            values = enumeration(s.text)
            if values:
                out[name] = (values, s)
                ctx.used.add(s)
                break
        listed = enumeration_lines([s.text for s in usage]) if name not in out else None
        if listed:
            values, lines = listed
            out[name] = (values, usage[lines[0]])
            ctx.used.update(usage[i] for i in lines)
    return out


def value_in(ctx: Context, evidence: list[Evidence], review: Review) -> list[Clause]:
    """value_in for int attributes (the usage notes' values, or the error row's range) and string
    ones (string_values.py); the row's code when it names the attribute."""
    documented = attribute_values(ctx)
    found: dict[str, dict[int, str]] = {}
    strings = _string_sets(ctx, evidence)
    # quoted names are a string's values, never an int's ("quantMode的值不是"static"" on an int)
    evidence = [e for e in evidence if _agrees(e, documented)
                and ("strings" not in e.limits or set(e.params) <= set(strings))]
    for name in ctx.of_kind("int"):
        readings = [e for e in evidence if name in e.params]
        values = documented[name][0] if name in documented else None
        if values is None:
            stated = next((e.limits["values"] for e in readings if "values" in e.limits), None)
            values = {v: str(v) for v in stated} if stated else None
        if values is not None:
            found[name] = values
    covered = {*found, *strings}
    clauses = []
    for name, values in found.items():
        readings = [e for e in evidence if name in e.params]
        # a row naming a parameter no value clause covers ("roundMode、dstType不符合当前支持的值", a
        # string roundMode whose notes list no plain set) gives its code, but the row is not encoded
        whole = [e for e in readings if set(e.params) <= covered]
        if any(not v.lstrip("-").isdigit() for v in values.values()):  # named: 0('none')
            ctx.params[name]["values"] = dict(values)
        sentences = [*(e.sentence for e in readings), *([documented[name][1]] if name in documented else [])]
        clauses.append({"id": ctx.new_id("VALUE"), "source": source(sentences), "kind": "value_in",
                        "params": [name], "values": sorted(values),
                        "on_violation": readings[0].status if readings else "unspecified",
                        "_evidence": whole})
    return clauses + [_string_value_in(ctx, name, sv, evidence, covered, review)
                      for name, sv in strings.items()]


def _agrees(e: Evidence, documented: dict[str, tuple[dict[int, str], Sentence]]) -> bool:
    """A row stating one value ("yDtype不为0") reads the attribute only where its notes list no
    other set (a row and notes disagreeing are for a person)."""
    name = e.params[0] if len(e.params) == 1 else None
    return not (e.limits.get("single") and name in documented
                and set(documented[name][0]) != set(e.limits["values"]))


def _string_sets(ctx: Context, evidence: list[Evidence]) -> dict[str, StringValues]:
    """Each string attribute's set: its row's plain set, else the one an error row naming it alone
    quotes (drawn by its first value only: nothing says the others hold for every draw)."""
    out = {}
    for name in ctx.of_kind("string"):
        row = ctx.rows.get(name)
        own = {id(t) for t in ((row.description, *row.usage) if row is not None else ())}
        notes = [t for r in ctx.facts.params for t in (r.description, *r.usage) if id(t) not in own]
        elsewhere = [*(e.text.text for e in ctx.facts.errors), *(t.text for t in ctx.facts.constraints),
                     *(t.text for t in notes)]
        documented = string_values(row, elsewhere)
        stated = next((e for e in evidence if e.params == (name,) and "strings" in e.limits), None)
        if documented is not None:
            out[name] = documented
        elif stated is not None:
            out[name] = StringValues(stated.limits["strings"], stated.sentence, narrowed=True)
    return out


def _string_value_in(ctx: Context, name: str, sv: StringValues, evidence: list[Evidence],
                     covered: set[str], review: Review) -> Clause:
    """Broken by a name the set lacks; drawn over the set, or its first value alone where the page
    narrows it by other arguments (a guess, reviewed)."""
    # a row quoting other values than the notes ("不属于"a"、"b"中的一种" beside 支持{"a"}) is not it
    readings = [e for e in evidence if name in e.params
                and set(e.limits.get("strings", sv.values)) == set(sv.values)]
    ctx.used.add(sv.sentence)
    quoted = [e.sentence for e in readings]
    clause = {"id": ctx.new_id("VALUE"), "source": source([*quoted, *([] if sv.sentence in quoted
                                                                          else [sv.sentence])]),
              "kind": "value_in", "params": [name], "values": list(sv.values),
              "on_violation": readings[0].status if readings else "unspecified",
              "_evidence": [e for e in readings if set(e.params) <= covered]}
    if sv.narrowed:
        clause["_draw"] = sv.draw
        review(Sentence(f"Drafted guess: the page ties the values of {name} to other arguments (or "
                        f"lists them in an error row only); the draft draws {sv.draw[0]!r} alone: "
                        "check it holds for every draw", sv.sentence.where), doc="contract")
    return clause


def dim_range(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """An int (or int array) attribute naming a dimension of a tensor: within [-max(rank, 1),
    max(rank, 1) - 1] (the page's [-self.dim(), self.dim()-1], [-1, 0] for a 0-d self)."""
    attrs, tensors = ctx.of_kind("int", "int_array"), ctx.tensors
    found: dict[tuple[str, str], list[Evidence]] = {}
    for e in evidence:
        named_attrs = [p for p in e.params if p in attrs]
        named_tensors = [p for p in e.params if p in tensors]
        inputs = [t for t in tensors if ctx.params[t]["role"] == "input"]
        tensor = (named_tensors or inputs or [None])[0]
        if e.limits.get("documented"):  # "dim越界": the range its own row writes, or none
            tensor = _documented(ctx, named_attrs, e.params)
        if len(named_attrs) == 1 and tensor is not None:
            found.setdefault((named_attrs[0], tensor), []).append(e)
    clauses = []
    for (attr, tensor), readings in found.items():
        if not expressible(attr, tensor):
            continue
        bound = f"max({tensor}.rank, 1)"
        if ctx.params[attr]["kind"] == "int":
            text = f"{attr} >= -{bound} and {attr} < {bound}"
        else:
            text = f"len({attr}) == 0 or (min({attr}) >= -{bound} and max({attr}) < {bound})"
        text = ctx.if_given(attr, text)
        requires = [cid for cid, params in null_ids.items() if tensor in params]
        clauses.append({"id": ctx.new_id("EXPR"), "source": source(e.sentence for e in readings),
                        "kind": "expr", "requires": requires, "all": [text],
                        "on_violation": readings[0].status, "_evidence": readings,
                        "_break": ("dim_above", attr), "_dim": (attr, tensor)})
    return clauses


def _documented(ctx: Context, attrs: list[str], params: tuple[str, ...]) -> str | None:
    """The tensor the one attribute's own row ranges it over, where the sentence names nothing else
    or that tensor ("dim的绝对值超出self的dim最大值" beside a row writing [-self.dim(), self.dim()))."""
    others = set(params) - set(attrs)
    if len(attrs) != 1 or len(others) > 1 or not others <= set(ctx.tensors):
        return None
    tensor = documented_dim(ctx, attrs[0])
    return tensor if others <= {tensor} else None


_DIM_RANGE = re.compile(rf"\[\s*-\s*({NAME})\.dim\(\)\s*[,，]\s*\1\.dim\(\)\s*"
                        r"(?:-\s*1\s*\]|\))")


# "支持[-N, N-1]，…N为self的维度", "[-xDim, xDim - 1]（其中xDim指输入x的维度）", "[-x_rank, x_rank)（x_rank
# 表示x的shape维度）": a name the sentence defines
_LETTER_RANGE = re.compile(letter_range("letter"))


def documented_dim(ctx: Context, attr: str) -> str | None:
    """The tensor whose dimensions the attribute's row says it ranges over: "取值范围为[-x.dim(),
    x.dim()-1]" (or "[-x.dim(), x.dim())", or "[-N, N-1]，N为x的维度") in its description or usage
    notes."""
    row = ctx.rows.get(attr)
    for s in (row.description, *row.usage) if row is not None else ():
        m = _DIM_RANGE.search(s.text)
        letter = _LETTER_RANGE.search(s.text) if m is None else None
        said = re.search(letter_is(re.escape(letter["letter"]), "tensor"), s.text) if letter else None
        tensor = m[1] if m else said["tensor"] if said else None
        if tensor in ctx.tensors:
            ctx.used.add(s)
            return tensor
    return None


def sign(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """"n小于0" → n >= 0; "p小于等于0" → p > 0 (int, float and scalar attributes, one clause each when the
    row names several: "n或m的值小于0"); "stride中存在小于等于0的数值" → every element > 0 (int
    arrays). Only when every parameter the row names is such an attribute (else the row says more)."""
    clauses = []
    for e in evidence:
        # "stride、dilation小于0" of int arrays alone: their elements (an array has no sign)
        arrays = bool(e.params) and set(e.params) <= set(ctx.of_kind("int_array"))
        elements = bool(e.limits.get("elements")) or arrays
        kinds = ("int_array",) if elements else ("int", "float", "scalar")
        attrs = [p for p in e.params if p in ctx.of_kind(*kinds) and expressible(p)]
        if not attrs or len(attrs) != len(e.params):
            continue
        for attr in attrs:
            clauses.append(_element_sign(ctx, e, attr) if elements else _sign(ctx, e, attr))
    return clauses


def _number(ctx: Context, attr: str) -> str:
    """How an expression reads the attribute's number (a host scalar's is its ``.value``)."""
    return f"{attr}.value" if ctx.params[attr]["kind"] == "scalar" else attr


def _scalars(ctx: Context, attr: str) -> list[str]:
    return [attr] if ctx.params[attr]["kind"] == "scalar" else []


def _sign(ctx: Context, e: Evidence, attr: str) -> Clause:
    positive = e.limits["positive"]
    bad = [0, -1] if positive else [-1]
    if ctx.params[attr]["kind"] in ("float", "scalar"):
        bad = [float(v) for v in bad]
    return {"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
            "all": [ctx.if_given(attr, f"{_number(ctx, attr)} {'>' if positive else '>='} 0")],
            "on_violation": e.status, "_evidence": [e], "break": {attr: {"sampled": bad}},
            "_sign": (attr, positive), "_reads_value": _scalars(ctx, attr)}


def _element_sign(ctx: Context, e: Evidence, attr: str) -> Clause:
    """Broken by the drawn array with every element 0 (or -1): its length stays what it was."""
    positive = e.limits["positive"]
    return {"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
            "all": [ctx.if_given(attr, f"len({attr}) == 0 or min({attr}) {'>' if positive else '>='} 0")],
            "on_violation": e.status, "_evidence": [e], "_break": ("elements", attr),
            "_element_sign": (attr, 0 if positive else -1)}


def interval(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """"p的值不在0和1之间" → 0 <= p <= 1 (a float attribute). Valid cases draw values inside the
    interval, never its bounds (whether a bound is allowed the page leaves to doubt); breaks are
    a whole unit outside it."""
    clauses = []
    for e in evidence:
        attrs = [p for p in e.params if p in ctx.of_kind("float", "scalar") and expressible(p)]
        low, high = e.limits["low"], e.limits["high"]
        if len(attrs) != 1 or len(e.params) != 1 or not (low < high):
            continue
        attr = attrs[0]
        if low != int(low) or high != int(high):  # expression constants are integers
            continue
        number = _number(ctx, attr)
        lower = f"{number} {'>' if e.limits.get('open_low') else '>='} {int(low)}"
        upper = f"{number} {'<' if e.limits.get('open_high') else '<='} {int(high)}"
        clauses.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                        "all": [ctx.if_given(attr, f"({lower} and {upper})")], "on_violation": e.status,
                        "_evidence": [e],
                        "break": {attr: {"sampled": [low - 1.0, high + 1.0]}},
                        "_interval": (attr, low, high), "_reads_value": _scalars(ctx, attr)})
    return clauses


def length(ctx: Context, evidence: list[Evidence], null_ids: dict[str, list[str]]) -> list[Clause]:
    """"padding的长度不等于6" → length 6; "kernelSize的长度不等于1或2" → len(kernelSize) in [1, 2]
    (an expr clause, broken by a longer array) (int arrays; a bool array's exact length only)."""
    clauses = []
    for e in evidence:
        arrays = [p for p in e.params if p in ctx.of_kind("int_array", "bool_array") and expressible(p)]
        if any(ctx.params[a]["kind"] == "bool_array" for a in arrays) and "length" not in e.limits:
            continue  # (the other readings draw and break int arrays: "[1] * n")
        if not arrays:
            clauses += _numel(ctx, e, null_ids)
        elif "length" in e.limits:
            clauses.append({"id": ctx.new_id("LENGTH"), "source": source([e.sentence]), "kind": "length",
                            "params": arrays, "length": e.limits["length"], "on_violation": e.status,
                            "_evidence": [e]})
        elif "lengths" not in e.limits:  # a bound: "repeats的参数个数超过8"
            clauses += [length_bound(ctx, e, a) for a in arrays]
        elif not any(ctx.params[a].get("optional") for a in arrays):
            lengths = e.limits["lengths"]
            requires = [cid for cid, params in null_ids.items() if set(params) & set(arrays)]
            clauses.append({"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                            "requires": requires,
                            "all": [f"len({a}) in {lengths}" for a in arrays], "on_violation": e.status,
                            "_evidence": [e], "_lengths": (arrays, lengths),
                            "break": {arrays[0]: {"expr": f"[1] * {max(lengths) + 1}"}}})
    return clauses


def _numel(ctx: Context, e: Evidence, null_ids: dict[str, list[str]]) -> list[Clause]:
    """"alpha元素个数不为1" → alpha.numel == 1 (tensors; numel_phrasings.ELEMENTS only, a tensor's
    "size" alone may be its shape). The generate section draws each such tensor as [n] alone (one
    tied to others by a shape keeps theirs, and the clause goes for review), broken by [n + 1]."""
    tensors = [p for p in e.params if p in ctx.tensors and expressible(p)]
    if ("length" not in e.limits or not tensors or len(tensors) != len(e.params)
            or not (e.limits.get("elements") or re.search(ELEMENTS, e.sentence.text, re.IGNORECASE))):
        return []
    n = e.limits["length"]
    requires = [cid for cid, params in null_ids.items() if set(params) & set(tensors)]
    return [{"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr", "requires": requires,
             "all": [ctx.if_given(t, f"{t}.numel == {n}") for t in tensors],
             "on_violation": e.status, "_evidence": [e], "_numel": (tensors, n)}]

"""Conditional error-row sentences: "当amsgrad为true时，maxGradNormOptional为空指针", "quantOffsetOptional
存在时，quantScaleOptional是空指针", "当outputMask为true，传入的gradInput是空指针时".

``read`` splits such a sentence into its CONDITION and its BODY and reads the body with the other
patterns (patterns.match); ``clauses`` reads the condition, once the page's parameter kinds are
known, into an expression of one of a few exact shapes (a bool attribute true or false, an element
of a bool array true or false, an int or string attribute equal to one of the values its row gives,
a tensor given (or, for a channel tie on it, "不为空"), a tensor's dtype: dtype_conditions.py) and
writes one ``expr`` clause ``not (COND) or BODY`` per sentence, for the bodies an expression states
exactly (a null pointer, an attribute's sign, two shapes that differ, an output's
broadcast shape or 0-d: reduced_outputs.py). Anything else (a condition on a rank, a
pronoun "其", a body naming two properties, a body on a dtype) is no clause: the sentence stays
for review. How such a clause is broken (the condition made true, the body false):
conditional_breaks.py.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from conformance.draft import channel_ties, conditional_tables, dtype_conditions, reduced_outputs
from conformance.draft.condition_phrasings import BARE_WHEN, FLAG_AND, GIVEN, is_conditional
from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.list_kinds import quoted_values
from conformance.draft.patterns import Match, match
from conformance.draft.sentence_limits import IDENT, named, rx, split_glued
from conformance.draft.string_values import string_values
from conformance.draft.words import NAME, QUOTE, QUOTES

PATTERN = "conditional"
# "当A时，B" / "若A的情况下，B" / "A时，B时" (a trailing 时 repeats the when); "当A，B时" and "当A，B"
# (outputMask rows); "A为V时B" (no comma: patterns.BARE_WHEN); "X[0]为True且B" (patterns.FLAG_AND)
_SPLIT = (rx(r"^(?:当|若|如果)?\s*(?P<cond>[^，,：:时]+?)\s*(?:时|的情况下|情况下|的场景下|场景下)\s*[，,]\s*"
              r"(?P<body>[^时]+?)\s*时?$"),
          rx(r"^当\s*(?P<cond>[^，,：:时]+?)\s*[，,]\s*(?P<body>[^时，,]+?)\s*时?$"))
# "outputMask[0]为true": one element of a bool array (valid cases draw every element true)
_ELEMENT = rx(rf"^(?P<name>{NAME})\s*\[\s*(?P<index>\d+)\s*\]\s*(?P<op>不为|不是|为|是|等于|==|=)\s*"
              r"(?P<value>true|false)$")
_VALUE = rf"{QUOTE}?[A-Za-z0-9_.\-]+{QUOTE}?"
_ATTR = rx(rf"^(?:参数|输入)?\s*(?P<name>{NAME})\s*(?:的值|的取值|取值)?\s*"
           r"(?P<op>不为|不是|不等于|!=|==|=|为|是|等于)\s*"
           rf"(?P<values>{_VALUE}(?:\s*(?:、|或者|或|/)\s*{_VALUE})*)$")
# "X存在", "X不为空指针", "传入X": X given ("X不为空" is not: it may say X is no empty tensor)
_PRESENT = rx(rf"^(?:(?:可选输入|输入|参数)?\s*(?P<name>{NAME})\s*(?:可选输入)?\s*"
              rf"(?:存在输入|存在|不为空指针|非空指针|不为nullptr|不是nullptr)|传入了?\s*(?P<passed>{NAME}))$")
# "runningMean不为空": given, or not empty (read only where a break meets both: _not_empty)
_NOT_EMPTY = rx(rf"^(?P<name>{NAME})\s*不为空$")
# a body naming two properties ("数据类型或shape不一致") says more than the one its pattern reads
_PROPERTIES = (r"数据类型|dtype", r"shape|形状", r"格式|format", r"维", r"空指针|nullptr", r"元素",
               r"取值|值")
_BODY_KINDS = ("not_null", "sign", "same_shape", "channel", "expr", "rank_in")
# the words a body may write beside names ("channel", "size", "C": a channel-axis body's)
_WORDS = {"shape", "dtype", "tensor", "nullptr", "null", "channel", "size", "c", "broadcast"}
# "antiquantOffsetOptional存在输入时，shape与antiquantScale不相同": the given tensor is the subject
_NO_SUBJECT = rx(r"^shape\s*(?:与|和)")


def split(text: str) -> tuple[str, str] | None:
    """(condition, body) of a conditional sentence; None when it is not one of the forms."""
    if not is_conditional(text) and not GIVEN.search(text.strip()):  # (a given X: patterns.GIVEN)
        return None
    if m := BARE_WHEN.search(text) or FLAG_AND.search(text):
        return m["cond"].strip(), text[m.end():].strip()
    for regex in _SPLIT:
        if m := regex.search(text.strip()):
            return m["cond"].strip(), m["body"].strip()
    return None


def read(text: str, names: Collection[str]) -> Match | None:
    """A conditional sentence whose body a pattern reads into one kind this module can state:
    the body's match, with the condition's text in its limits (``clauses`` reads it)."""
    parts = split(text)
    if parts is None:
        return None
    cond, body = parts
    if re.search(r"[，,]", body):  # "传入x，y为空指针": a list or two statements, not read
        return None
    given = GIVEN.search(text.strip())
    if given and _NO_SUBJECT.search(body):  # "X存在输入时，shape与Y不相同": X's shape, said as X's
        body = f"{given['name'] or given['passed']}的{body}"
    found = match(body, names)
    table = found is not None and conditional_tables.reads(found.kinds, body)
    if found is None or not table and (len(found.kinds) != 1 or found.kinds[0] not in _BODY_KINDS):
        return None
    if not table and not reduced_outputs.reads(found.kinds[0], found.limits):  # (of expr, rank_in)
        return None
    said = [p for p in _PROPERTIES if re.search(p, body, re.IGNORECASE)]
    if len(said) > 1 and not (table and set(said) <= {_PROPERTIES[0], _PROPERTIES[2]}):
        return None  # (a table body names its dtype and format: "数据类型和数据格式不在支持的范围之内")
    if any(not named(w, names) and w.lower() not in _WORDS for w in IDENT.findall(split_glued(body))):
        return None  # "x1、x2、y1的shape不相同" where y1 is no parameter: the body says more
    limits = {**found.limits, "condition": cond, "body": "table" if table else found.kinds[0],
              "tables": found.kinds, "body_text": body}
    return Match(PATTERN, (PATTERN,), found.params, limits)


def condition(ctx: Context, text: str) -> tuple[str, dict[str, Any]] | None:
    """(the expression, the draws making it true: attribute → values) of a condition; None when it
    is not one of the shapes read exactly."""
    if (dtype := dtype_conditions.condition(ctx, text)) is not None:  # "x的数据类型为INT32"
        return dtype
    if m := _ELEMENT.search(text):
        return _element(ctx, m)
    m = _PRESENT.search(text)
    given = m and (m["name"] or m["passed"])
    if given and given in ctx.tensors:  # (a required tensor is always given: the body holds always)
        return (f"present({given})", {}) if expressible(given) else None
    m = _ATTR.search(text)
    if m is None or m["name"] not in ctx.params or not expressible(m["name"]):
        return None
    name, negated = m["name"], m["op"] in ("不为", "不是", "不等于", "!=")
    words = [w.strip(QUOTES) for w in re.split(r"\s*(?:、|或者|或|/)\s*", m["values"])]
    values = _values(ctx, name, words)
    if values is None:
        return None
    kind = ctx.params[name]["kind"]
    if kind == "bool":
        if len(values) != 1:
            return None
        truth = values[0] != negated
        return (name if truth else f"not {name}"), {name: [truth]}
    if negated:  # "reduction的值不为0": made true by any other value the draws know
        others = [v for v in _known(ctx, name) if v not in values]
        test = f"{name} != {values[0]!r}" if len(values) == 1 else f"{name} not in {values!r}"
        return (test, {name: others}) if others else None
    test = f"{name} == {values[0]!r}" if len(values) == 1 else f"{name} in {values!r}"
    return test, {name: values}


def _element(ctx: Context, m: re.Match[str]) -> tuple[str, dict[str, Any]] | None:
    """``outputMask[0]`` (or ``not outputMask[0]``), made true by the array drawn with that element
    so: {name: {"at": 0, "value": True}} (conditional_breaks.py draws it at its length clause's length)."""
    name, at = m["name"], int(m["index"])
    if name not in ctx.params or ctx.params[name]["kind"] != "bool_array" or not expressible(name):
        return None
    truth = (m["value"].lower() == "true") != (m["op"] in ("不为", "不是"))
    return (f"{name}[{at}]" if truth else f"not {name}[{at}]"), {name: {"at": at, "value": truth}}


def _values(ctx: Context, name: str, words: list[str]) -> list[Any] | None:
    """The condition's values as the parameter takes them: true/false for a bool; ints, or the
    names the page maps to ints ("none" ↔ 0 where the row says so), for an int; the values the
    row quotes for a string."""
    kind = ctx.params[name]["kind"]
    if kind == "bool":
        truths = {"true": True, "false": False}
        return [truths[w.lower()] for w in words] if all(w.lower() in truths for w in words) else None
    if kind == "int":
        named = {str(v).lower(): k for k, v in ctx.params[name].get("values", {}).items()}
        out = [int(w) if re.fullmatch(r"-?\d+", w) else named.get(w.lower()) for w in words]
        return None if None in out else out
    if kind == "string":  # (in braces, or the row's plain set: "取值必须是"a"、"b"中的一种")
        row = ctx.rows.get(name)
        plain = string_values(row)
        quoted = [*quoted_values(row), *(plain.values if plain is not None else [])]
        return words if all(w in quoted for w in words) else None
    return None


def _known(ctx: Context, name: str) -> list[Any]:
    """The values ``ctx.params[name]["values"]`` holds, sorted; [] when it holds none (value_in
    in attr_clauses.py records them only for an int attribute whose page names its values,
    "0('none')"; nothing is read from the rows here)."""
    values = ctx.params[name].get("values")
    return sorted(values) if values else []


def clauses(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """One expr clause per conditional sentence whose condition and body both read exactly."""
    out = []
    for e in evidence:
        cond = condition(ctx, e.limits["condition"]) or _not_empty(ctx, e)
        if cond is not None and e.limits["body"] == "table":  # the rows' lists, where cond holds
            out += conditional_tables.clauses(ctx, e, *cond)
            continue
        given = re.fullmatch(r"present\((\w+)\)", cond[0]) if cond is not None else None
        body = _body(ctx, e, given[1] if given else None) if cond is not None else None
        if cond is None or body is None or f"{body[1].get('null')}.dtype" in cond[0]:
            continue  # (a condition on the dtype of the tensor the break draws null: never true then)
        test, made_true = cond
        lines, info = body
        clause: Clause = {"id": ctx.new_id("EXPR"), "source": source([e.sentence]), "kind": "expr",
                          "all": [f"not ({test}) or {line}" for line in lines], "on_violation": e.status,
                          "_evidence": [e], "_conditional": {"when": made_true, "test": test, **info}}
        if info.get("sign"):  # valid draws keep the sign; a scalar's value needs its dtype clauses
            attr = info["sign"][0]
            clause["_sign"] = info["sign"]
            clause["_reads_value"] = [attr] if ctx.params[attr]["kind"] == "scalar" else []
        out.append(clause)
    return out


def _not_empty(ctx: Context, e: Evidence) -> tuple[str, dict[str, Any]] | None:
    """``present(X)`` for "X不为空时，X的size与input的channel轴不一致": 不为空 may mean non-null or
    non-empty, and a channel tie's break draws X given with C+1 elements, which meets both."""
    m = _NOT_EMPTY.search(e.limits["condition"])
    tie = e.limits.get("tie")
    if m is None or e.limits["body"] != "channel" or not tie or tuple(tie[0]) != (m["name"],) \
            or m["name"] not in ctx.tensors or not expressible(m["name"]):
        return None
    return f"present({m['name']})", {}


def _body(ctx: Context, e: Evidence, given: str | None) -> tuple[list[str], dict[str, Any]] | None:
    """(the body's expressions, how to break it) for the kinds stated exactly (``given``: the
    tensor the condition says is given, the subject of a body that names none)."""
    kind, names = e.limits["body"], list(e.params)
    if kind == "same_shape" and given and given not in names and _NO_SUBJECT.search(e.limits["body_text"]):
        names = [given, *names]
    if e.limits.get("scope") == "all" or not names or not expressible(*names):
        return None
    kinds = {n: ctx.params[n]["kind"] for n in names if n in ctx.params}
    if len(kinds) != len(names):
        return None
    if kind == "not_null" and set(kinds.values()) == {"tensor"}:
        return [f"present({n})" for n in names], {"null": names[0]}
    if kind == "sign" and len(names) == 1 and kinds[names[0]] in ("int", "float", "scalar") \
            and not e.limits.get("elements"):
        name, positive = names[0], e.limits["positive"]
        number = f"{name}.value" if kinds[name] == "scalar" else name
        bad = [-1.0] if kinds[name] != "int" else [-1]
        return [f"{number} {'>' if positive else '>='} 0"], {"sign": (name, positive), "bad": {name: bad}}
    if kind == "channel":  # (channel_ties.py: which axis, and the tie's expressions)
        return channel_ties.body(ctx, e)
    if kind in ("expr", "rank_in"):  # an output's shape (reduced_outputs.py)
        return reduced_outputs.body(ctx, kind, names, e.limits)
    if kind == "same_shape" and len(names) >= 2 and set(kinds.values()) == {"tensor"}:
        first = names[0]  # the given tensor, when the condition names one, is the one perturbed;
        optional = [n for n in names if ctx.params[n].get("optional") and n != given]  # else an
        outputs = [n for n in names if ctx.params[n]["role"] == "output"]  # optional one, an output
        moved = given if given in names else (optional or outputs or names)[-1]  # (an input ties others)
        like = first if moved != first else names[1]
        lines = [f"{n}.shape == {first}.shape" for n in names[1:]]
        for n in optional:  # (left out, an optional tensor has no shape to compare)
            lines = [ctx.if_given(n, t) if re.search(rf"\b{n}\b", t) else t for t in lines]
        return lines, {"perturb": moved, "like": like}
    return None

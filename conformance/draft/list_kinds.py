"""Drafting the parameter kinds beyond one tensor: tensor lists (``aclTensorList*``), host scalars
(``aclScalar*``) and strings (``char*``).

A tensor list is drafted like a tensor (its table row's dtypes, formats and ranks hold for every
element) and drawn as ``count`` elements of its tensor's shape, so lists tied by same_shape match
position by position. A relation the spec language states only between lists (same_shape,
broadcastable) or an expression reading a list as one tensor (``x.rank``) cannot name a list
beside tensors: such a clause is left for review. A scalar is drawn like a float attribute, its
dtype from its own dtype_in clause. A string is drawn from the values its row writes in braces
(``仅支持{"none", "tanh"}``): the first only, since later sentences often narrow the set by other
arguments, and a review says it is a guess (a plain set no note narrows, string_values.py, is a
value_in clause drawn whole); a required string whose row quotes none cannot be drawn, so the
parameter is left out (context.py).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.facts import ParamRow, Review, Sentence
from conformance.draft.words import QUOTE

_POINTERS = ("tensor", "tensor_list", "scalar", "int_array", "bool_array")
COUNT = [1, 3]  # elements per drawn list: the count clauses rarely fix; more only cost time
_BRACES = re.compile(r"\{([^{}]*)\}")
_QUOTED = re.compile(rf"{QUOTE}([A-Za-z0-9_\-]+){QUOTE}")
# "x或out中的Tensor", "tensors列表中tensor", "scaledGrads中的Tensor": the elements of each list
_WITHIN = re.compile(r"(?:列表)?(?:中|内)(?:的|所有的?|各个?)?\s*(?:Tensor|tensor|张量)")
_AND_WITHIN = re.compile(r"及其(?:中|内)")
_ELEMENTS_TIED = re.compile(r"该参数中(?:的)?所有\s*(?:Tensor|tensor)\s*的数据类型(?:保持|均|必须)?一致")


def quoted_values(row: ParamRow | None) -> list[str]:
    """The string values a parameter row writes in braces, in order (the first braces that quote
    any): ``支持{"rint", "round"}`` -> ["rint", "round"]."""
    if row is None:
        return []
    for sentence in (row.description, *row.usage):
        for group in _BRACES.findall(sentence.text):
            values = _QUOTED.findall(group)
            if values:
                return list(dict.fromkeys(values))
    return []


def within_lists(text: str, named: tuple[str, ...], lists: list[str]) -> list[str]:
    """The lists a sentence speaks of element by element ("x或out中的Tensor的数据类型不一致": within
    x, within out), when it names lists only; else []. Not "A、B与C及其中各个tensor的数据类型不同": the
    lists AND their elements, one dtype over everything (a plain tie)."""
    if not named or not set(named) <= set(lists) or not _WITHIN.search(text) or _AND_WITHIN.search(text):
        return []
    return [n for n in lists if n in named]


def ties_elements(text: str) -> bool:
    """Whether a list's usage note says its elements share one dtype ("该参数中所有Tensor的数据类型
    保持一致")."""
    return bool(_ELEMENTS_TIED.search(text))


def count_draw(params: dict[str, Any]) -> str:
    """The name of the draw giving every list's element count (one for all: lists align)."""
    return "count" if "count" not in params else "list_count"


def list_arg(shape_draw: str, count: str) -> str:
    return f"[{shape_draw}] * {count}"


def mixes_lists(clause: dict[str, Any], lists: set[str], tensors: set[str]) -> bool:
    """A clause the spec language cannot state with these lists: a positional relation naming
    a list beside a tensor, or an expression reading a list's name."""
    named = set(clause.get("params", []))
    if clause["kind"] in ("same_shape", "broadcastable") and named & lists and named & tensors:
        return True
    if clause.get("_reads_lists"):  # (element by element, in a generator: list_sizes.py)
        return False
    texts = [*clause.get("all", []), clause.get("when", "")]
    return any(re.search(rf"\b{re.escape(n)}\b", t) for t in texts for n in lists)


def tidy(params: dict[str, dict[str, Any]], clauses: list[dict[str, Any]],
         review: Review, where: Callable[[str], Any]) -> None:
    """Clauses ``mixes_lists`` finds are left for review (with what requires them)."""
    lists = {n for n, p in params.items() if p["kind"] == "tensor_list"}
    tensors = {n for n, p in params.items() if p["kind"] == "tensor"}
    if not lists:
        return
    gone = {c["id"] for c in clauses if mixes_lists(c, lists, tensors)}
    gone |= {c["id"] for c in clauses if set(c.get("requires", [])) & gone}
    for c in [c for c in clauses if c["id"] in gone]:
        clauses.remove(c)
        if str(c.get("on_violation", "")).startswith("ACLNN_"):
            names = [p for p in c.get("params", []) if p in params] or sorted(lists)
            review(Sentence(c["source"]["quote"], where(names[0])), "tensor list relation")


def require_pointers(params: dict[str, dict[str, Any]], clauses: list[dict[str, Any]]) -> None:
    """An expression reading a pointer argument (a scalar's ``.value``, an array's ``len``) cannot
    be evaluated where it is null: it requires the not_null clauses naming what it reads; and a
    scalar's value compares only in a listed dtype (a complex one does not): the dtype_in
    clauses naming it too."""
    pointers = {n for n, p in params.items() if p["kind"] in _POINTERS and not p.get("optional")}
    scalars = {n for n, p in params.items() if p["kind"] == "scalar"}
    needs = [(c["id"], set(c["params"]) if c["kind"] == "not_null" else set(c["params"]) & scalars)
             for c in clauses if c["kind"] in ("not_null", "dtype_in")]
    for c in clauses:
        texts = [*c.get("all", []), c.get("when", "")] if c["kind"] == "expr" else []
        texts.append(c.get("only_if", ""))  # (a dtype_in or format_in clause under a condition)
        read = {n for n in pointers | scalars for t in texts if re.search(rf"\b{re.escape(n)}\b", t)}
        needed = [cid for cid, named in needs if named & read and cid != c["id"]]
        if needed:
            c["requires"] = list(dict.fromkeys([*c.get("requires", []), *needed]))


def scalar_guesses(params: dict[str, dict[str, Any]], clauses: list[dict[str, Any]],
                   review: Review, where: Callable[[str], Any]) -> None:
    """A scalar no dtype_in clause names is passed in the test item's dtype: a guess to check
    (pages often tie its dtype to a tensor's in notes no clause reads)."""
    for name, p in params.items():
        if p["kind"] == "scalar" and not any(c["kind"] == "dtype_in" and name in c["params"]
                                             for c in clauses):
            review(Sentence(f"Drafted guess: no clause gives the dtypes of the scalar {name}; the "
                            "draft passes it in the first tensor's dtype: check it", where(name)),
                   doc="contract")


def attribute(kind: str, name: str, row: ParamRow | None,
              values: list[Any] | None) -> tuple[dict[str, Any], bool] | None:
    """(the draw, guessed) of a string parameter; None for other kinds."""
    if kind != "string":
        return None
    if values:
        return {"sampled": list(values)}, False
    quoted = quoted_values(row)
    return {"sampled": quoted[:1] or [None]}, True

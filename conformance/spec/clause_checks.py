"""Cross-reference checks of a spec's constraints the JSON Schema cannot make (spec/loader.py runs
them): unique ids, known and evaluable requirements without cycles, parameters a clause kind can
take. ``fail(message, *path)`` builds the SpecError naming the file, line and field."""
from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from conformance.errors import SpecError
from conformance.spec.model import Constraint, Param

Fail = Callable[..., SpecError]


def check_ids(constraints: list[Constraint], fail: Fail) -> None:
    seen: dict[str, int] = {}
    for i, c in enumerate(constraints):
        if c.id in seen:
            raise fail(f"duplicate constraint id {c.id} (first at constraints[{seen[c.id]}])",
                       "constraints", i, "id")
        seen[c.id] = i
    for i, c in enumerate(constraints):
        for j, req in enumerate(c.requires):
            if req not in seen:
                raise fail(f"requires unknown constraint id {req}", "constraints", i, "requires", j)
            kind = constraints[seen[req]].kind
            if kind in ("behavior", "review"):  # it has no predicate to evaluate
                raise fail(f"requires {req}, a {kind} clause: only a clause with a predicate can "
                           "be required", "constraints", i, "requires", j)


def check_cycles(constraints: list[Constraint], fail: Fail) -> None:
    """The oracle evaluates requirements first, so a cycle would only show when judging."""
    index = {c.id: i for i, c in enumerate(constraints)}
    done: set[str] = set()

    def visit(cid: str, stack: tuple[str, ...]) -> None:
        if cid in stack:
            chain = " -> ".join(stack[stack.index(cid):] + (cid,))
            raise fail(f"constraint {cid} requires itself ({chain})", "constraints", index[cid],
                       "requires")
        if cid not in done:
            for req in constraints[index[cid]].requires:
                visit(req, stack + (cid,))
            done.add(cid)

    for c in constraints:
        visit(c.id, ())


def check_kind_params(kind: str, names: list[str], params: dict[str, Param], domains: Collection[str],
                      fail: Fail, *at: Any) -> None:
    """An optional parameter's null is valid (no not_null clause); a data_in parameter needs a
    domain in the ``data`` section."""
    for j, name in enumerate(names):
        if kind == "not_null" and params[name].optional:
            raise fail(f"{name!r} is optional: a null pointer is a valid argument, so a not_null "
                       "clause cannot name it", *at, "params", j)
        if kind == "data_in" and name not in domains:
            raise fail(f"a data_in clause on {name!r} needs its domain under data.{name}", *at,
                       "params", j)
    check_list_params(kind, names, params, fail, *at)


def check_list_params(kind: str, names: list[str], params: dict[str, Param], fail: Fail,
                      *at: Any) -> None:
    """A relation between tensor lists holds position by position, so it relates lists only;
    ``same_dtype`` on one parameter ties the elements of a list."""
    lists = [n for n in names if params[n].kind == "tensor_list"]
    if kind in ("same_shape", "broadcastable") and lists and len(lists) != len(names):
        raise fail(f"a {kind} clause relates tensor lists element by element: it cannot mix "
                   f"{lists[0]!r} (a tensor_list) with a tensor", *at, "params")
    if kind == "same_dtype" and len(names) < 2 and not lists:
        raise fail("a same_dtype clause needs two parameters, or one tensor_list (its elements "
                   "share one dtype)", *at, "params")


def check_list_tie(kind: str, raw: dict[str, Any], params: dict[str, Param], fail: Fail,
                   *at: Any) -> None:
    """A same_dtype clause's ``lists``: ``each`` names tensor lists only; ``position`` ties a
    list's elements to something else (two parameters, one a list)."""
    tie, names = raw.get("lists"), raw.get("params", [])
    if kind != "same_dtype" or tie is None:
        return
    lists = [n for n in names if params[n].kind == "tensor_list"]
    if tie == "each" and len(lists) != len(names):
        other = next(n for n in names if n not in lists)
        raise fail(f"lists: each ties the elements within each tensor list: {other!r} is not one",
                   *at, "lists")
    if tie == "position" and (not lists or len(names) < 2):
        raise fail("lists: position ties the i-th elements of tensor lists to those of another "
                   "parameter: it needs a tensor_list and two parameters", *at, "lists")


def check_clause_options(kind: str, raw: dict[str, Any], params: dict[str, Param], fail: Fail,
                         *at: Any) -> None:
    """Options that must fit the kind of parameter named: an int or bool array's ``length`` is exact; a
    string parameter's ``values`` are strings (and a number's are not)."""
    kinds = {params[n].kind for n in raw.get("params", [])}
    if kind == "length" and kinds & {"int_array", "bool_array"} and "length" not in raw:
        raise fail("a length clause on an int_array or bool_array gives its exact length (length: N)", *at)
    if kind == "value_in":
        strings = [isinstance(v, str) for v in raw["values"]]
        if "string" in kinds and not all(strings) or "string" not in kinds and any(strings):
            raise fail("value_in values must be strings for a string parameter, and numbers "
                       "otherwise", *at, "values")


#: The clause kinds judged with the vocabulary's promotion and cast tables (spec/promotion.py).
DTYPE_RELATIONS = ("promotable", "castable")


def check_dtype_relation(kind: str, raw: dict[str, Any], params: dict[str, Param], has_rules: bool,
                         fail: Fail, *at: Any) -> None:
    """A promotable or castable clause names arguments with a dtype; the vocabulary must hold the
    tables (castable's ``to``: cast_target)."""
    if kind not in DTYPE_RELATIONS:
        return
    if not has_rules:
        raise fail(f"a {kind} clause needs the vocabulary's dtype_rules (promotion and cast "
                   "tables), and this vocabulary has none", *at, "kind")
    for j, name in enumerate(raw["params"]):
        if params[name].kind not in ("tensor", "tensor_list", "scalar"):
            raise fail(f"a {kind} clause needs parameters with a dtype (tensor, tensor_list, scalar), "
                       f"{name!r} is {params[name].kind}", *at, "params", j)


def cast_target(raw: dict[str, Any], params: dict[str, Param], dtype: Callable[[str], str | None],
                fail: Fail, *at: Any) -> tuple[tuple[str, ...], str | None]:
    """castable's ``to``: ``(names, None)`` where it names parameters (their promoted dtype; one:
    its own dtype), tensors or scalars of any role; ``((), DTYPE)`` where it is a dtype name."""
    target = raw["to"]
    names = [target] if isinstance(target, str) else list(target)
    if isinstance(target, str) and target not in params:
        canonical = dtype(target)
        if canonical is None:
            raise fail(f"castable 'to' names {target!r}, neither a parameter nor a dtype", *at, "to")
        return (), canonical
    for j, name in enumerate(names):
        if name not in params or params[name].kind not in ("tensor", "scalar"):
            raise fail(f"castable 'to' names {name!r}, not a tensor or scalar parameter",
                       *at, "to", *([] if isinstance(target, str) else [j]))
    return tuple(names), None

"""Safe arithmetic/boolean expressions over shapes and attributes, parsed with ``ast``.

Specs say things like ``padding[0] < self.shape[-1]``. We never ``eval``: the parsed tree is checked
against a whitelist of node types, names, attributes and functions, then interpreted here.
"""
from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np


class ExprError(Exception):
    """An expression that is not allowed (at parse time) or cannot be evaluated (at run time)."""


def _broadcast(*shapes: Any) -> tuple[int, ...]:
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*(tuple(s) for s in shapes)))
    except ValueError as exc:
        raise ExprError(f"shapes {', '.join(str(tuple(s)) for s in shapes)} do not broadcast") from exc


def _broadcastable(*shapes: Any) -> bool:
    try:
        _broadcast(*shapes)
    except ExprError:
        return False
    return True


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len, "min": min, "max": max, "abs": abs, "all": all, "any": any, "sum": sum,
    "prod": math.prod, "broadcast": _broadcast, "broadcastable": _broadcastable,
    "present": lambda value: value is not None,  # an optional argument was given (not null)
}
ATTRIBUTES = frozenset({"shape", "rank", "numel", "dtype", "format", "strides", "offset", "contiguous",
                        "value"})  # (value: a scalar argument's number)
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
           ast.NotIn: lambda a, b: a not in b}
_CMPTEXT = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
            ast.In: "in", ast.NotIn: "not in"}
_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
            ast.BinOp, ast.Compare, ast.Call, ast.Attribute, ast.Subscript, ast.Slice, ast.Name,
            ast.Load, ast.Constant, ast.Tuple, ast.List, ast.IfExp, *_BINOPS, *_CMPOPS)
_MAX_INT = 1 << 62  # keeps arithmetic on attacker-sized numbers cheap


_MAX_DEPTH = 100  # the interpreter recurses once per level; keep it far from the recursion limit


def _check_depth(tree: ast.AST) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise ExprError(f"expression is nested more than {_MAX_DEPTH} levels deep")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


class Expression:
    """A parsed, whitelisted expression; ``evaluate(names)`` runs it, ``explain`` says why it failed."""

    def __init__(self, text: str, names: frozenset[str]) -> None:
        self.text = text
        try:
            self.tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as exc:
            raise ExprError(f"invalid expression syntax at column {exc.offset}: {text!r}") from None
        except (RecursionError, MemoryError):
            raise ExprError(f"expression is nested too deeply: {text[:40]!r}...") from None
        _check_depth(self.tree)
        for node in ast.walk(self.tree):
            self._check_node(node, names)

    @staticmethod
    def _check_node(node: ast.AST, names: frozenset[str]) -> None:
        if not isinstance(node, _ALLOWED):
            raise ExprError(f"{type(node).__name__} is not allowed in an expression")
        if isinstance(node, ast.Name) and node.id not in names and node.id not in FUNCTIONS:
            known = ", ".join(sorted(names))
            raise ExprError(f"unknown name {node.id!r} (parameters: {known}; functions: "
                            f"{', '.join(sorted(FUNCTIONS))})")
        if isinstance(node, ast.Attribute) and node.attr not in ATTRIBUTES:
            raise ExprError(f"unknown attribute .{node.attr} (allowed: {', '.join(sorted(ATTRIBUTES))})")
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name)
                                           or node.func.id not in FUNCTIONS or node.keywords):
            raise ExprError("only calls of " + ", ".join(sorted(FUNCTIONS)) + " with positional "
                            "arguments are allowed")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, str, bool)):
            raise ExprError(f"constant {node.value!r} is not allowed")
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and abs(node.value) > _MAX_INT:
            raise ExprError(f"constant {node.value} is too large")

    def evaluate(self, names: Mapping[str, Any]) -> Any:
        """The value of the expression; ``ExprError`` when it cannot be computed for these names."""
        return _Interpreter(names).run(self.tree.body)

    def explain(self, names: Mapping[str, Any]) -> str:
        """A concrete message for a false result, e.g. ``padding[1]=4 must be < self.shape[-1]=4``."""
        body = self.tree.body
        interp = _Interpreter(names)
        if isinstance(body, ast.Compare) and len(body.ops) == 1:
            left, right = body.left, body.comparators[0]
            return (f"{_show(left, interp)} must be {_CMPTEXT[type(body.ops[0])]} "
                    f"{_show(right, interp)}")
        atoms = [f"{ast.unparse(n)}={_fmt(interp.run(n))}" for n in _atoms(body)]
        return f"{self.text.strip()} does not hold" + (f" ({', '.join(atoms)})" if atoms else "")


def _show(node: ast.AST, interp: _Interpreter) -> str:
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return f"{ast.unparse(node)}={_fmt(interp.run(node))}"


def _fmt(value: Any) -> str:
    return str(list(value)) if isinstance(value, tuple) else str(value)


def _atoms(node: ast.AST) -> list[ast.AST]:
    """The outermost attribute/subscript/name leaves (not function names), in source order."""
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return [node]
    if isinstance(node, ast.Name):
        return [] if node.id in FUNCTIONS else [node]
    found: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(node, ast.Call) and child is node.func:
            continue
        found.extend(a for a in _atoms(child) if ast.unparse(a) not in map(ast.unparse, found))
    return found


class _Interpreter:
    def __init__(self, names: Mapping[str, Any]) -> None:
        self.names = names

    def run(self, node: ast.AST) -> Any:
        try:
            return self._eval(node)
        except ExprError:
            raise
        except (IndexError, TypeError, ValueError, KeyError, ZeroDivisionError, AttributeError) as exc:
            raise ExprError(f"cannot evaluate {ast.unparse(node)!r}: {exc}") from None

    def _eval(self, node: ast.AST) -> Any:  # noqa: C901 - one branch per node type reads best
        ev = self._eval
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in self.names:
                raise ExprError(f"{node.id} is not given")
            return self.names[node.id]
        if isinstance(node, ast.Attribute):
            return getattr(ev(node.value), node.attr)
        if isinstance(node, ast.Subscript):
            return ev(node.value)[ev(node.slice)]
        if isinstance(node, ast.Slice):
            parts = (node.lower, node.upper, node.step)
            return slice(*(None if p is None else ev(p) for p in parts))
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(ev(e) for e in node.elts)
        if isinstance(node, ast.BoolOp):
            return self._boolop(node)
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand)
            return {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}[
                type(node.op)](value)
        if isinstance(node, ast.BinOp):
            return _checked(_BINOPS[type(node.op)](ev(node.left), ev(node.right)))
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if isinstance(node, ast.Call):
            return FUNCTIONS[node.func.id](*(ev(a) for a in node.args))
        raise ExprError(f"{type(node).__name__} is not allowed")

    def _boolop(self, node: ast.BoolOp) -> bool:
        want = isinstance(node.op, ast.Or)
        for value in node.values:
            if bool(self._eval(value)) is want:
                return want
        return not want

    def _compare(self, node: ast.Compare) -> bool:
        left = self._eval(node.left)
        for op, comp in zip(node.ops, node.comparators):
            right = self._eval(comp)
            if not _CMPOPS[type(op)](left, right):
                return False
            left = right
        return True


def _checked(value: Any) -> Any:
    if isinstance(value, int) and abs(value) > _MAX_INT:
        raise ExprError(f"intermediate value {value} is too large")
    return value

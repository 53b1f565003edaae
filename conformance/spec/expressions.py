"""Safe arithmetic/boolean expressions over shapes and attributes, parsed with ``ast``.

Specs say things like ``padding[0] < self.shape[-1]``. We never ``eval``: the parsed tree is checked
against a whitelist of node types, names, attributes and functions, then interpreted here.

Parameters are named as the C prototype names them, even where Python reserves the word: ``from <
to`` (a keyword the language does not use is read as the parameter of that name), ``min.value <=
max.value`` (a function's name not called is the parameter: a name is a function only where it is
called). Only the words the language itself is made of (``GRAMMAR``) cannot name a parameter.
"""
from __future__ import annotations

import ast
import operator
from collections import ChainMap
from collections.abc import Callable, Mapping
from typing import Any

from conformance.spec.expression_functions import FUNCTIONS, ExprError
from conformance.spec.expression_messages import false_message
from conformance.spec.expression_names import GRAMMAR, nameable, spelled

__all__ = ["ATTRIBUTES", "FUNCTIONS", "GRAMMAR", "ExprError", "Expression", "nameable"]

ATTRIBUTES = frozenset({"shape", "rank", "numel", "dtype", "format", "strides", "offset", "contiguous",
                        "value"})  # (value: a scalar argument's number)
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
           ast.NotIn: lambda a, b: a not in b}
_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
            ast.BinOp, ast.Compare, ast.Call, ast.Attribute, ast.Subscript, ast.Slice, ast.Name,
            ast.Load, ast.Constant, ast.Tuple, ast.List, ast.IfExp, ast.GeneratorExp, ast.comprehension,
            ast.Store, *_BINOPS, *_CMPOPS)
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
        self.text, self.names = text, names
        respelled, aliases = spelled(text.strip(), names)
        try:
            self.tree = ast.parse(respelled, mode="eval")
        except SyntaxError as exc:
            raise ExprError(f"invalid expression syntax at column {exc.offset}: {text!r}") from None
        except (RecursionError, MemoryError):
            raise ExprError(f"expression is nested too deeply: {text[:40]!r}...") from None
        _check_depth(self.tree)
        for node in ast.walk(self.tree):  # (the parameters' own names again, for every later reader)
            if isinstance(node, ast.Name) and node.id in aliases:
                node.id = aliases[node.id]
        names = names | _bound(self.tree)
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

    def disjuncts(self) -> tuple[Expression, ...]:
        """The operands of a top-level ``or`` (``not (COND) or BODY``: a conditional rule, holding
        by its exemption or by its body), each an expression of its own; () for any other form."""
        body = self.tree.body
        if not (isinstance(body, ast.BoolOp) and isinstance(body.op, ast.Or)):
            return ()
        return tuple(Expression(ast.unparse(v), self.names) for v in body.values)

    def explain(self, names: Mapping[str, Any]) -> str:
        """A concrete message for a false result, e.g. ``padding[1]=4 must be < self.shape[-1]=4``."""
        return false_message(self.tree.body, self.text, self.names, _Interpreter(names).run)


def _bound(tree: ast.AST) -> frozenset[str]:
    """The names a generator binds (``o, i`` in ``all(o.numel >= i.numel for o, i in zip(out, x))``),
    the only way an expression reads tensor lists element by element. A target is a name or a
    tuple of names; a bound name read outside its generator is "not given" when evaluated."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension):
            targets = node.target.elts if isinstance(node.target, ast.Tuple) else [node.target]
            if node.is_async or not all(isinstance(t, ast.Name) for t in targets):
                raise ExprError(f"a generator binds names only: {ast.unparse(node.target)!r}")
            bound.update(t.id for t in targets)  # type: ignore[attr-defined]
    return frozenset(bound)


class _Interpreter:
    def __init__(self, names: Mapping[str, Any]) -> None:
        self.names = names

    def run(self, node: ast.AST) -> Any:
        try:
            return _compiled(node)(self.names)
        except ExprError:
            raise
        except (IndexError, TypeError, ValueError, KeyError, ZeroDivisionError, AttributeError) as exc:
            raise ExprError(f"cannot evaluate {ast.unparse(node)!r}: {exc}") from None


Compiled = Callable[[Mapping[str, Any]], Any]


def _compiled(node: ast.AST) -> Compiled:
    """The node's closure, made once and kept on the node (it lives as long as its tree): a spec's
    expressions are evaluated for every case drawn and every clause judged, and walking the tree
    each time was a tenth of a run against the reference."""
    fn = getattr(node, "_closure", None)
    if fn is None:
        fn = _compile(node)
        node._closure = fn  # type: ignore[attr-defined]
    return fn


def _compile(node: ast.AST) -> Compiled:  # noqa: C901 - one branch per node type reads best
    """The node as a function of the names, evaluating its parts in the order Python would."""
    if isinstance(node, ast.Constant):
        constant = node.value
        return lambda names: constant
    if isinstance(node, ast.Name):
        return _name(node.id)
    if isinstance(node, ast.Attribute):
        value, attr = _compiled(node.value), node.attr
        return lambda names: getattr(value(names), attr)
    if isinstance(node, ast.Subscript):
        value, index = _compiled(node.value), _compiled(node.slice)
        return lambda names: value(names)[index(names)]
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _compiled(p) for p in (node.lower, node.upper, node.step)]
        return lambda names: slice(*(None if p is None else p(names) for p in parts))
    if isinstance(node, (ast.Tuple, ast.List)):
        elements = [_compiled(e) for e in node.elts]
        return lambda names: tuple(e(names) for e in elements)
    if isinstance(node, ast.BoolOp):
        return _boolop(isinstance(node.op, ast.Or), [_compiled(v) for v in node.values])
    if isinstance(node, ast.UnaryOp):
        unary = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}[type(node.op)]
        operand = _compiled(node.operand)
        return lambda names: unary(operand(names))
    if isinstance(node, ast.BinOp):
        binop, left, right = _BINOPS[type(node.op)], _compiled(node.left), _compiled(node.right)
        return lambda names: _checked(binop(left(names), right(names)))
    if isinstance(node, ast.Compare):
        return _compare(_compiled(node.left), [(_CMPOPS[type(op)], _compiled(c))
                                               for op, c in zip(node.ops, node.comparators)])
    if isinstance(node, ast.IfExp):
        test, body, orelse = _compiled(node.test), _compiled(node.body), _compiled(node.orelse)
        return lambda names: body(names) if test(names) else orelse(names)
    if isinstance(node, ast.GeneratorExp):
        return _generator(node)
    if isinstance(node, ast.Call):
        function, args = node.func.id, [_compiled(a) for a in node.args]
        return lambda names: FUNCTIONS[function](*(a(names) for a in args))
    kind = type(node).__name__
    return lambda names: _refuse(f"{kind} is not allowed")


def _refuse(message: str) -> Any:
    raise ExprError(message)


def _name(name: str) -> Compiled:
    def value(names: Mapping[str, Any]) -> Any:
        if name not in names:
            raise ExprError(f"{name} is not given")
        return names[name]
    return value


def _generator(node: ast.GeneratorExp) -> Compiled:
    """The generator's elements as a tuple (all of them: specs' lists are short), each evaluated
    with the names its ``for`` clauses bind over the outer ones."""
    element = _compiled(node.elt)
    loops = [(_binder(g.target), _compiled(g.iter), [_compiled(c) for c in g.ifs]) for g in node.generators]

    def run(names: Mapping[str, Any]) -> tuple[Any, ...]:
        scopes: list[Mapping[str, Any]] = [names]
        for bind, iterable, conditions in loops:
            inner = [ChainMap(bind(item), scope) for scope in scopes for item in iterable(scope)]
            scopes = [scope for scope in inner if all(c(scope) for c in conditions)]
        return tuple(element(scope) for scope in scopes)
    return run


def _binder(target: ast.AST) -> Callable[[Any], dict[str, Any]]:
    if isinstance(target, ast.Name):
        return lambda item: {target.id: item}
    names = [t.id for t in target.elts]  # type: ignore[attr-defined]  # (_bound checked: names)

    def bind(item: Any) -> dict[str, Any]:
        values = tuple(item)
        if len(values) != len(names):
            raise ExprError(f"cannot unpack {len(values)} values into {', '.join(names)}")
        return dict(zip(names, values))
    return bind


def _boolop(want: bool, values: list[Compiled]) -> Compiled:
    def run(names: Mapping[str, Any]) -> bool:
        for value in values:
            if bool(value(names)) is want:
                return want
        return not want
    return run


def _compare(first: Compiled, rest: list[tuple[Callable[[Any, Any], Any], Compiled]]) -> Compiled:
    def run(names: Mapping[str, Any]) -> bool:
        left = first(names)
        for op, comp in rest:
            right = comp(names)
            if not op(left, right):
                return False
            left = right
        return True
    return run


def _checked(value: Any) -> Any:
    if isinstance(value, int) and abs(value) > _MAX_INT:
        raise ExprError(f"intermediate value {value} is too large")
    return value

"""What a false expression says about the case: ``padding[1]=4 must be < self.shape[-1]=4`` for a
single comparison, else the expression and the values of its leaves. The expression's evaluator
(expressions.py) reads each leaf; a leaf the expression's own guards keep from being read in this
case (``out.shape[d]`` behind ``out.rank == x.rank and``: a 0-d out has none) is left out."""
from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from conformance.spec.expression_functions import FUNCTIONS, ExprError

_CMPTEXT = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
            ast.In: "in", ast.NotIn: "not in"}

Run = Callable[[ast.AST], Any]  # a node's value in the case (ExprError where it has none)


def false_message(body: ast.AST, text: str, names: frozenset[str], run: Run) -> str:
    """The message for ``body`` (the expression ``text`` over ``names``) being false in a case."""
    if isinstance(body, ast.Compare) and len(body.ops) == 1:
        left, right = body.left, body.comparators[0]
        return f"{_show(left, run)} must be {_CMPTEXT[type(body.ops[0])]} {_show(right, run)}"
    atoms = [shown for n in _atoms(body, names) if (shown := _shown(n, run)) is not None]
    return f"{text.strip()} does not hold" + (f" ({', '.join(atoms)})" if atoms else "")


def _shown(node: ast.AST, run: Run) -> str | None:
    try:
        return f"{ast.unparse(node)}={_fmt(run(node))}"
    except ExprError:
        return None


def _show(node: ast.AST, run: Run) -> str:
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return f"{ast.unparse(node)}={_fmt(run(node))}"


def _fmt(value: Any) -> str:
    if isinstance(value, tuple) and value and all(hasattr(v, "shape") for v in value):
        return "[" + ", ".join(f"shape {list(v.shape)}" for v in value) + "]"  # a tensor list
    return str(list(value)) if isinstance(value, tuple) else str(value)


def _atoms(node: ast.AST, names: frozenset[str]) -> list[ast.AST]:
    """The outermost attribute/subscript/name leaves (not function names), in source order; of a
    generator only what it iterates (its element names nothing outside it)."""
    if isinstance(node, ast.GeneratorExp):
        return [a for g in node.generators for a in _atoms(g.iter, names)]
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return [node]
    if isinstance(node, ast.Name):
        return [] if node.id in FUNCTIONS and node.id not in names else [node]
    found: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(node, ast.Call) and child is node.func:
            continue
        found.extend(a for a in _atoms(child, names) if ast.unparse(a) not in map(ast.unparse, found))
    return found

"""Spec expressions as evaluated (each node compiled once to a closure): values, Python's order
and short-circuits, chained comparisons, the one-line errors, and explain's message."""
from __future__ import annotations

import pytest

from conformance.cases.tensor import TensorMeta
from conformance.spec.expressions import ExprError, Expression

NAMES = frozenset({"x", "y", "padding", "reduction"})


def ev(text: str, **names):
    return Expression(text, NAMES).evaluate(names)


def test_values_follow_python():
    x = TensorMeta((2, 3, 4), "FLOAT")
    assert ev("x.shape[-1] * 2 + x.rank", x=x) == 11
    assert ev("padding[1:3]", padding=(1, 2, 3, 4)) == (2, 3)
    assert ev("padding[::2]", padding=(1, 2, 3, 4)) == (1, 3)
    assert ev("[x.numel, -x.rank, +1]", x=x) == (24, -3, 1)
    assert ev("7 // 2 + 7 % 2", x=x) == 4
    assert ev("1 if x.contiguous else 2", x=x) == 1
    assert ev("max(padding) - min(padding) + len(padding) + prod(x.shape)", x=x, padding=(0, 5)) == 31
    assert ev("broadcast(x.shape, [1, 4])", x=x) == (2, 3, 4)
    assert ev("present(y) or reduction in (0, 1, 2)", y=None, reduction=3) is False


def test_boolean_operators_return_booleans_and_short_circuit():
    assert ev("reduction or 5", reduction=3) is True  # not Python's 3
    assert ev("reduction and 0", reduction=3) is False
    assert ev("reduction == 0 or y.rank > 0", reduction=0) is True  # y never read
    assert ev("reduction != 0 and y.rank > 0", reduction=0) is False


def test_chained_comparisons_stop_at_the_first_false():
    assert ev("0 <= reduction < 3", reduction=2) is True
    assert ev("0 <= reduction < 3", reduction=3) is False
    assert ev("reduction < 0 < y.rank", reduction=1) is False  # y never read
    assert ev("reduction not in padding", reduction=1, padding=(0, 2)) is True


@pytest.mark.parametrize("text, names, words", [
    ("x.rank", {}, "x is not given"),
    ("padding[7]", {"padding": (1, 2)}, "cannot evaluate 'padding[7]'"),
    ("x.shape + 1", {"x": TensorMeta((2,), "FLOAT")}, "cannot evaluate 'x.shape + 1'"),
    ("reduction // 0", {"reduction": 1}, "cannot evaluate"),
    ("broadcast([2], [3])", {}, "do not broadcast"),
    ("reduction * reduction", {"reduction": 1 << 40}, "too large"),
])
def test_errors_are_expr_errors(text, names, words):
    with pytest.raises(ExprError, match=words.replace("[", r"\[").replace("+", r"\+")):
        ev(text, **names)


def test_the_same_expression_gives_each_names_their_own_answer():
    e = Expression("x.shape[0] < reduction", NAMES)
    answers = [e.evaluate({"x": TensorMeta((n,), "FLOAT"), "reduction": 3}) for n in (1, 5, 2, 3)]
    assert answers == [True, False, True, False]


def test_explain_names_the_values():
    e = Expression("padding[1] < x.shape[-1]", NAMES)
    assert e.explain({"padding": (0, 4), "x": TensorMeta((2, 4), "FLOAT")}) == \
        "padding[1]=4 must be < x.shape[-1]=4"
    e = Expression("x.rank == 2 and reduction in (0, 1)", NAMES)
    assert e.explain({"x": TensorMeta((2, 4, 1), "FLOAT"), "reduction": 7}) == \
        "x.rank == 2 and reduction in (0, 1) does not hold (x.rank=3, reduction=7)"


def test_explain_leaves_out_what_the_expression_guards_from_being_read():
    # a 0-d out has no out.shape[0]: the clause never reads it, and neither does its message
    e = Expression("out.rank == x.rank and 2 * out.shape[0] == x.shape[0]", NAMES | {"out"})
    names = {"x": TensorMeta((2,), "FLOAT"), "out": TensorMeta((), "FLOAT")}
    assert e.evaluate(names) is False
    assert e.explain(names) == ("out.rank == x.rank and 2 * out.shape[0] == x.shape[0] does not hold "
                                "(out.rank=0, x.rank=1, x.shape[0]=2)")


def test_distinct_drops_repeats_and_counts_axes_from_either_end():
    x = TensorMeta((2, 3), "FLOAT")
    assert ev("distinct(padding)", padding=(1, 0, 1)) == [1, 0]
    assert ev("len(distinct(padding)) == len(padding)", padding=(0, 1)) is True
    assert ev("len(distinct(padding, x.rank)) == len(padding)", x=x, padding=(1, -1)) is False
    assert ev("distinct(padding, x.rank)", x=x, padding=(-2, 0, -1)) == [0, 1]
    # an axis out of range is no duplicate of one in range (3 is not 1 on a rank-2 tensor)
    assert ev("len(distinct(padding, x.rank)) == len(padding)", x=x, padding=(1, 3)) is True
    with pytest.raises(ExprError, match="not positive"):
        ev("distinct(padding, 0)", padding=(1,))


def test_a_generator_reads_tensor_lists_position_by_position():
    from conformance.spec.values import TensorList

    def lists(*shapes):
        return TensorList(TensorMeta(s, "FLOAT") for s in shapes)
    e = Expression("len(y) != len(x) or all(o.numel >= i.numel for o, i in zip(y, x))", NAMES)
    assert e.evaluate({"y": lists((2, 3), (4,)), "x": lists((6,), (2, 2))}) is True
    assert e.evaluate({"y": lists((2, 3), (3,)), "x": lists((6,), (2, 2))}) is False  # the 2nd: 3 < 4
    assert e.evaluate({"y": lists((1,)), "x": lists((6,), (2, 2))}) is True  # (lengths: another clause)
    assert e.explain({"y": lists((2, 3), (3,)), "x": lists((6,), (2, 2))}).endswith(
        "does not hold (y=[shape [2, 3], shape [3]], x=[shape [6], shape [2, 2]])")
    assert ev("max(p * 2 for p in padding if p < 2)", padding=(0, 1, 2)) == 2
    assert ev("sum(a * b for a in padding for b in padding)", padding=(1, 2)) == 9


@pytest.mark.parametrize("text, words", [
    ("all(x for x[0] in padding)", "binds names only"),
    ("[p for p in padding]", "ListComp is not allowed"),
    ("all(q > 0 for p in padding)", "unknown name 'q'"),
])
def test_generators_bind_plain_names_only(text, words):
    with pytest.raises(ExprError, match=words):
        Expression(text, NAMES)


def test_a_bound_name_outside_its_generator_is_not_given():
    with pytest.raises(ExprError, match="p is not given"):
        ev("all(p > 0 for p in padding) and p > 0", padding=(1,))
    with pytest.raises(ExprError, match="cannot unpack 1 values"):
        ev("all(a > b for a, b in zip(padding))", padding=(1,))


def test_parameters_are_named_as_their_prototype_names_them():
    """``from``/``lambda`` (keywords) and ``min``/``max`` (functions, where not called) are the
    parameters; the tree and every text made from it keep the names."""
    names = frozenset({"from", "to", "lambda", "min", "max"})
    e = Expression("from < to and lambda > 0 and min <= max and max(min, 3) == 3", names)
    assert e.evaluate({"from": 1, "to": 2, "lambda": 1, "min": 2, "max": 3}) is True
    assert e.evaluate({"from": 2, "to": 2, "lambda": 1, "min": 2, "max": 3}) is False
    assert Expression("from < to", names).explain({"from": 2, "to": 2}) == "from=2 must be < to=2"
    assert Expression("min <= max and lambda > 0", names).explain({"min": 4, "max": 3, "lambda": 1}) == \
        "min <= max and lambda > 0 does not hold (min=4, max=3, lambda=1)"
    assert [d.text for d in Expression("not (from > 0) or lambda > 0", names).disjuncts()] == \
        ["not from > 0", "lambda > 0"]
    assert Expression("'from' == 'from'", names).evaluate({}) is True  # (a string stays a string)


def test_a_keyword_no_parameter_has_is_still_a_syntax_error():
    with pytest.raises(ExprError, match="invalid expression syntax"):
        Expression("from < 1", NAMES)
    with pytest.raises(ExprError, match="invalid expression syntax"):
        Expression("in < 1", frozenset({"in"}))  # (a word of the language itself names nothing)

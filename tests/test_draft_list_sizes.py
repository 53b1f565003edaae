"""Vague shape rows of tensor lists coded with an element-count note ("shape size大于等于入参x的
shape size", list_sizes.py), alone or beside a same_shape note, on invented foreach-like pages."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param
from test_draft_rows import _valid_and_broken_alone

from conformance.draft.clauses import draft_clauses, recount
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam

TILING = "ACLNN_ERR_INNER_TILING_ERROR"
SIZE = "数据类型和数据格式与入参a的数据类型和数据格式一致，shape size大于等于入参a的shape size。"
AT_LEAST = "len(out) != len(a) or all(o.numel >= i.numel for o, i in zip(out, a))"


def _page(rows: tuple[str, ...], notes: dict[str, tuple[str, ...]], names=("a", "b", "out"),
          lists: tuple[str, ...] = ("a", "b", "out")) -> PageFacts:
    """aclnnToyEach(names…): tensor lists (or tensors where not in ``lists``), one error row per text."""
    proto = tuple(PrototypeParam(n, "aclTensorList*" if n in lists else "aclTensor*", const=n != "out",
                                 optional=False) for n in names)
    params = tuple(param(n, i + 1, dtypes=("FLOAT",), direction="output" if n == "out" else "input",
                         rank=(0, 8), usage=notes.get(n, ())) for i, n in enumerate(names))
    errors = tuple(error(TILING, 561002, text, i + 1) for i, text in enumerate(rows))
    return PageFacts("aclnnToyEach", "toy/docs/aclnnToyEach.md", PRODUCTS[:2], proto, params, errors,
                     deterministic=None)


def _coded(d) -> list[tuple[str, object]]:  # noqa: ANN001 - a Draft
    return [(c["kind"], c.get("params") or c.get("all")) for c in d.clauses
            if str(c.get("on_violation")).startswith("ACLNN_")]


def test_an_output_list_bounded_by_its_input_codes_the_row(vocab):
    d = draft_clauses(_page(("a与out的shape不满足约束。",), {"out": (SIZE,)}, names=("a", "out")), vocab)
    assert _coded(d) == [("expr", [AT_LEAST])]
    assert [o.checkable for o in d.outcomes] == [True]
    quote = next(c["source"]["quote"] for c in d.clauses if c["kind"] == "expr")
    assert quote == f"a与out的shape不满足约束 / {SIZE}"


@pytest.mark.parametrize("note", [
    "shape size大于入参a的shape size。",  # (strictly more: not what the clause says)
    "当a为空时，shape size大于等于入参a的shape size。",
    "shape size大于等于入参out的shape size。",  # (itself)
    "shape与入参a的shape size一致。",
])
def test_other_size_notes_leave_the_row_to_review(vocab, note):
    d = draft_clauses(_page(("a与out的shape不满足约束。",), {"out": (note,)}, names=("a", "out")), vocab)
    assert _coded(d) == [] and [o.checkable for o in d.outcomes] == [False]


def test_a_size_note_between_tensors_is_not_read(vocab):
    # (only lists: nothing of the kind on a page between tensors, to read right)
    d = draft_clauses(_page(("a与out的shape不满足约束。",), {"out": (SIZE,)}, names=("a", "out"), lists=()),
                      vocab)
    assert _coded(d) == [] and [o.checkable for o in d.outcomes] == [False]


def test_a_row_over_three_lists_is_the_same_shape_and_the_size_together(vocab):
    notes = {"b": ("数据类型、数据格式和shape与入参a一致。",), "out": (SIZE,)}
    d = draft_clauses(_page(("a、b、out的shape不满足约束。",), notes), vocab)
    assert sorted(_coded(d)) == [("expr", [AT_LEAST]), ("same_shape", ["a", "b"])]
    assert [o.checkable for o in d.outcomes] == [True]
    # the row needs both: without either clause (left out as unbreakable) it is not encoded
    for kind in ("same_shape", "expr"):
        d.clauses = [c for c in d.clauses if c["kind"] != kind or "_evidence" not in c]
        recount(d)
        assert [o.checkable for o in d.outcomes] == [False]


def test_a_list_no_note_ties_leaves_the_row_to_review(vocab):
    d = draft_clauses(_page(("a、b、out的shape不满足约束。",), {"out": (SIZE,)}), vocab)
    assert _coded(d) == [] and [o.checkable for o in d.outcomes] == [False]


def test_the_bounded_list_is_drawn_as_the_other_and_broken_one_element_short(vocab, tmp_path):
    notes = {"b": ("shape与入参a一致。",), "out": (SIZE,)}
    d = draft_spec(_page(("a、b、out的shape不满足约束。",), notes), vocab, "toy")
    gen = d.spec["generate"]
    assert gen["draws"]["out_shape"] == {"expr": "a_shape"}
    assert gen["args"]["out"] == "[out_shape] * count"
    size = next(c for c in d.spec["constraints"] if c["kind"] == "expr")
    shorter = {"out_shape": {"expr": "[max(prod(a_shape) - 1, 0)]"}}
    assert (size["on_violation"], size["break"]) == (TILING, shorter)
    assert [o.checkable for o in d.draft.outcomes] == [True]
    _valid_and_broken_alone(d, tmp_path)


def test_a_bounded_list_another_clause_shapes_is_left_for_review(vocab):
    # out tied to b by its own note: a break of out alone would break that same_shape too
    notes = {"out": (SIZE, "shape与入参b一致。")}
    d = draft_spec(_page(("a与out的shape不满足约束。",), notes), vocab, "toy")
    assert [c for c in d.spec["constraints"] if c["kind"] == "expr" and "numel" in str(c["all"])] == []
    assert [o.checkable for o in d.draft.outcomes] == [False]

"""Pad operators' rows (pads.py): a padding value at or above the dim it pads, and the padded
tensor's shape, drafted only where the padding row says which dim each pair pads. The fixture page
(tests/fixtures/pad_pages) is an invented operator in the vendor's layout."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import by_quote, loaded_draft

from conformance.cases.oracle import explain
from conformance.draft.emit import draft_spec
from conformance.draft.facts import Sentence
from conformance.draft.pads import pairs
from conformance.draft.patterns import match
from conformance.draft.reading import read_page
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import load_vocabulary, specs_dir

VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
PAGE = Path(__file__).parent / "fixtures" / "pad_pages" / "docs" / "aclnnToyPad2d.md"
NAMES = ("self", "padding", "out", "gradOutput")
LIMIT = "padding中的数值大于等于self对应维度的大小"
SHAPE = "out后两维的大小不等于self后两维的大小加对应padding"
VAGUE = "输出out的shape与实际不匹配"


@pytest.mark.parametrize(("text", "limits"), [
    (LIMIT, {"pad": "padding", "tensor": "self"}),
    ("padding里的数值大于等于对应self的维度大小。", {"pad": "padding", "tensor": "self"}),
    ("padding的数值大于等于self最后一维度的大小", {"pad": "padding", "tensor": "self", "pairs": 1}),
])
def test_padding_limit_rows_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.kinds, found.limits) == (
        "padding limit", ("pad_limit",), limits)


@pytest.mark.parametrize(("text", "limits"), [
    (SHAPE, {"padded": "out", "tensor": "self", "pad": "padding", "pairs": 2}),
    ("out最后一维的大小不等于self最后一维的大小加padding的两个值",
     {"padded": "out", "tensor": "self", "pad": "padding", "pairs": 1}),
    ("out后三维度的值不等于self后三维度的值加对应padding",
     {"padded": "out", "tensor": "self", "pad": "padding", "pairs": 3}),
    ("gradOutput的shape需要与toy_pad正向传播的output一致", {"padded": "gradOutput", "forward": True}),
])
def test_padded_shape_rows_are_read(text, limits):
    found = match(text, NAMES)
    assert found is not None and (found.pattern, found.kinds, found.limits) == (
        "padded shape", ("pad_shape",), limits)


@pytest.mark.parametrize("text", [
    "out后两维的大小不等于self最后一维的大小加对应padding",  # two counts of dims: not one rule
    "padding的数值大于self对应维度的大小",  # "大于", not "大于等于": another bound
])
def test_other_pad_sentences_are_not_read_as_pads(text):
    assert match(text, NAMES) is None


@pytest.fixture(scope="module")
def facts():
    return read_page(PAGE.read_text(encoding="utf-8"), "toy: aclnnToyPad2d.md", VOCAB)


def _with_padding_usage(facts, text):
    rows = tuple(replace(r, usage=(Sentence(text, r.where),)) if r.name == "padding" else r
                 for r in facts.params)
    return replace(facts, params=rows)


@pytest.mark.parametrize(("text", "read"), [
    ("长度为4，四个数值依次代表左右上下方向要补的宽度。", (2, None)),
    ("长度为6，依次代表左右上下前后的宽度。", (3, None)),
    ("长度为2，两个数值都需小于self最后一维度的大小。", (1, "self")),
    ("长度为4。前两个数值需小于self最后一维度的大小，后两个数值需小于self倒数第二维度的大小。", (2, "self")),
    ("长度为4。", None),  # no order said
    ("长度为4，依次代表左右需要填充的值。", None),  # one pair named for a length of four
    ("长度为4。前两个数值需小于self倒数第二维度的大小，后两个数值需小于self最后一维度的大小。", None),
])
def test_the_padding_row_must_say_which_dim_each_pair_pads(facts, text, read):
    row = next(r for r in _with_padding_usage(facts, text).params if r.name == "padding")
    got = pairs(row)
    assert (got[:2] if got else None) == read


def test_the_fixture_rows_become_the_exact_clauses(facts):
    drafted = draft_spec(facts, VOCAB, "toy: aclnnToyPad2d.md")
    clauses = {q.split(" / ")[0]: c for q, c in by_quote(drafted.spec).items()}
    guard = "len(padding) != 4 or self.rank < 2"
    assert clauses[LIMIT]["all"] == [
        f"{guard} or padding[0] < self.shape[-1] and padding[1] < self.shape[-1]",
        f"{guard} or padding[2] < self.shape[-2] and padding[3] < self.shape[-2]"]
    assert clauses[LIMIT]["break"] == {"padding": {"mode": "above"}}
    assert clauses[SHAPE]["all"] == [
        f"{guard} or out.rank < 2 or out.shape[-1] == self.shape[-1] + padding[0] + padding[1]",
        f"{guard} or out.rank < 2 or out.shape[-2] == self.shape[-2] + padding[2] + padding[3]"]
    assert clauses[SHAPE]["break"] == {"out_padded_shape": {"mode": "perturb"}}
    gen = drafted.spec["generate"]
    assert gen["draws"]["padding"] == {
        "below": "[self_shape[-1], self_shape[-1], self_shape[-2], self_shape[-2]]"}
    assert gen["draws"]["out_padded_shape"] == {
        "expr": "self_shape[:-2] + [self_shape[-2] + padding[2] + padding[3], "
                "self_shape[-1] + padding[0] + padding[1]]"}
    assert gen["args"]["out"] == "out_padded_shape"
    # the vague row: the padded dims (the shape clause's) and the others, broken by the first dim
    assert clauses[VAGUE]["all"] == [
        f"{guard} or out.rank == self.rank and out.shape[:-2] == self.shape[:-2]"]
    assert clauses[VAGUE]["break"] == {"out_padded_shape": {
        "expr": "[self_shape[0] + 1] + self_shape[1:-2] + [self_shape[-2] + padding[2] + padding[3], "
                "self_shape[-1] + padding[0] + padding[1]]"}}
    assert all(o.checkable for o in drafted.draft.outcomes)
    assert not [c for c in drafted.spec["constraints"] if c["kind"] == "review"]  # (out no guess now)


def test_a_page_not_saying_the_order_leaves_both_rows_for_review(facts):
    drafted = draft_spec(_with_padding_usage(facts, "长度为4。"), VOCAB, "toy: aclnnToyPad2d.md")
    clauses = by_quote(drafted.spec)
    assert {clauses[q]["kind"] for q in (LIMIT, SHAPE, VAGUE)} == {"review"}
    assert drafted.spec["generate"]["args"]["out"] != "out_padded_shape"
    assert "below" not in drafted.spec["generate"]["draws"]["padding"]


def test_valid_cases_are_padded_and_each_break_breaks_its_clause_alone(facts, tmp_path):
    drafted = draft_spec(facts, VOCAB, "toy: aclnnToyPad2d.md")
    spec, vocab, specs, product, dtype = loaded_draft(drafted, tmp_path)
    for mode in ("min", "max"):
        case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
        x, out, pad = case.args["self"].shape, case.args["out"].shape, case.args["padding"]
        assert list(out) == [*x[:-2], x[-2] + pad[2] + pad[3], x[-1] + pad[0] + pad[1]]
        assert all(pad[i] < x[-1 - i // 2] for i in range(4))
        assert explain(case, specs).expected == "success"
    for cid in ("TP2-PAD", "TP2-PAD-2", "TP2-PAD-3"):
        cases = broken_cases(spec, vocab, product, dtype, FixedChooser("max"), cid)
        assert cases
        for case in cases:
            e = explain(case, specs)
            assert e.status == (161002,) and {v.clause for v in e.violations} == {cid}

"""Drafting clauses from what a page says (conformance/draft/): hand-built PageFacts → exact
clauses, the generate section, and a drafted spec that loads and builds cases (the error-row
patterns on single sentences: test_draft_patterns.py)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from draft_facts import PRODUCTS, at, error, param, products, toy_dim, toy_loss

from conformance.cases.oracle import explain
from conformance.draft.clauses import draft_clauses
from conformance.draft.context import Evidence, prefix, reading
from conformance.draft.emit import draft_spec, vocabulary_additions
from conformance.draft.facts import PageError, PrototypeParam, Sentence, Where
from conformance.draft.pack import write_pack
from conformance.draft.stats import page_stats
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.dry_run import load_operator
from conformance.spec.loader import specs_dir, vocabulary_for
from conformance.spec.model import SpecSet


def test_a_clause_left_out_is_reviewed_under_what_it_was_read_as():
    said = Sentence("x的shape与y不一致", Where("errors", 3))
    read = Evidence("same_shape", "shapes differ", ("x", "y"), "ACLNN_ERR_PARAM_INVALID", said, {}, 0)
    assert reading({"kind": "same_shape", "_evidence": [read]}) == "shapes differ"
    assert reading({"kind": "rank_in"}) == "rank_in"  # read from the parameter table, no sentence


def test_prefix_is_the_capitals_of_the_api():
    assert prefix("aclnnMseLossBackward") == "MLB"
    assert prefix("aclnnReplicationPad3dBackward") == "RP3B"
    assert prefix("aclnnAdd") == "A"


# -- a whole page: exact clauses ------------------------------------------------------------------
def _by_id(constraints):
    return {c["id"]: c for c in constraints}


def test_an_elementwise_loss_page_drafts_these_clauses(vocab):
    d = draft_spec(toy_loss(), vocab, "toy/ops: toy/docs/aclnnToyLossBackward.md")
    c = _by_id(d.spec["constraints"])
    assert list(c) == ["TLB-NULL", "TLB-DTYPE", "TLB-DTYPE-2", "TLB-SAME-DTYPE", "TLB-BCAST", "TLB-EXPR",
                       "TLB-RANK", "TLB-RANK-2", "TLB-VALUE", "TLB-FORMAT",
                       "TLB-NONCONTIGUOUS", "TLB-PHASE", "TLB-DETERMINISM", "TLB-VALUES", "TLB-REVIEW"]
    assert c["TLB-NULL"]["params"] == ["gradOutput", "self", "target", "out"]
    assert c["TLB-NULL"]["on_violation"] == "ACLNN_ERR_PARAM_NULLPTR"
    # gradOutput and target "与self一致" share self's list, product note and code; out has its own
    assert c["TLB-DTYPE"]["params"] == ["gradOutput", "self", "target"]
    assert c["TLB-DTYPE"]["per_product"] == {"atlas-a2": ["FLOAT", "FLOAT16", "BFLOAT16"],
                                             "atlas-training": ["FLOAT", "FLOAT16"]}
    assert c["TLB-DTYPE"]["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert (c["TLB-DTYPE-2"]["params"], c["TLB-DTYPE-2"]["on_violation"]) == (["out"], "unspecified")
    assert c["TLB-SAME-DTYPE"]["params"] == ["gradOutput", "self", "target"]
    assert c["TLB-BCAST"]["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert c["TLB-EXPR"]["all"] == ["out.shape == broadcast(gradOutput.shape, self.shape, target.shape)"]
    assert c["TLB-EXPR"]["requires"] == ["TLB-NULL", "TLB-BCAST"]
    assert c["TLB-EXPR"]["break"] == {"out_shape": {"mode": "perturb"}}
    # the row says more than 8 dims (coded); out, their broadcast, moves with them (its own
    # table limit would be a clause no case breaks alone); the table's lower bound is unspecified
    assert (c["TLB-RANK"]["params"], c["TLB-RANK"]["max"], c["TLB-RANK"]["on_violation"]) == (
        ["gradOutput", "self", "target", "out"], 8, "ACLNN_ERR_PARAM_INVALID")
    assert (c["TLB-RANK-2"]["min"], c["TLB-RANK-2"]["on_violation"]) == (1, "unspecified")
    assert c["TLB-VALUE"]["values"] == [0, 1, 2]
    assert c["TLB-VALUE"]["on_violation"] == "ACLNN_ERR_PARAM_INVALID"
    assert d.spec["params"]["reduction"]["values"] == {0: "none", 1: "mean", 2: "sum"}
    assert c["TLB-DETERMINISM"]["checks"] == ["determinism"]
    assert c["TLB-REVIEW"] == {
        "id": "TLB-REVIEW", "kind": "review", "closest": "same element count",
        "source": {"doc": "upstream", "quote": "target的每个元素都必须是偶数",
                   "where": "aclnnToyLossBackwardGetWorkspaceSize > 返回值, errors table, row 8 (line 224)"}}


def test_every_clause_quotes_the_page_and_says_where(vocab):
    d = draft_spec(toy_loss(), vocab, "toy/ops: x.md")
    for c in d.spec["constraints"]:
        assert c["source"]["quote"] and c["source"]["where"], c["id"]
    bcast = d.spec["constraints"][4]["source"]["quote"]
    assert bcast.startswith("gradOutput、self和target的shape无法做broadcast")
    assert d.spec["doc_version"] == {"revision": "0123456789abcdef0123456789abcdef01234567",
                                     "date": "2026-01-02", "page": "toy/docs/aclnnToyLossBackward.md"}
    assert d.spec["unsupported"] == {"atlas-inference": {
        "doc": "upstream", "quote": "Atlas 推理系列产品：不支持", "where": "产品支持情况 (line 12)"}}
    assert d.spec["summary"] == "玩具损失函数的反向传播。"
    assert "reference" not in d.spec


def test_rows_become_checkable_clauses_or_reviews(vocab):
    d = draft_spec(toy_loss(), vocab, "toy/ops: x.md")
    stats = page_stats(d)
    assert (stats["error_rows"], stats["error_rows_checkable"], stats["reviews"]) == (8, 7, 1)
    assert stats["patterns"]["(no pattern)"] == 1 and stats["patterns"]["null pointer"] == 1
    assert stats["clauses"]["dtype_in"] == 2 and stats["parameters"] == 5


def test_a_dim_attribute_follows_the_tensor_rank(vocab):
    d = draft_spec(toy_dim(), vocab, "toy/ops: y.md")
    c = _by_id(d.spec["constraints"])
    assert c["TD-EXPR"]["all"] == ["dim >= -max(self.rank, 1) and dim < max(self.rank, 1)"]
    assert c["TD-EXPR"]["break"] == {"dim": {"outside": ["-max(len(self_shape), 1)",
                                                         "max(len(self_shape), 1) - 1"]}}
    draws = d.spec["generate"]["draws"]
    assert draws["dim"] == {"integers": ["-max(len(self_shape), 1)", "max(len(self_shape), 1) - 1"]}
    # "shape与self一致" ties out to self's draw; "支持空Tensor" lets it be empty; rank 0-8
    assert d.spec["generate"]["args"] == {"self": "self_shape", "dim": "dim", "out": "self_shape"}
    assert draws["self_shape"]["shape"]["empty"] == "any" and draws["self_shape"]["shape"]["rank"] == [0, 8]
    assert c["TD-SAME-SHAPE"]["on_violation"] == "ACLNN_ERR_INNER_TILING_ERROR"
    assert c["TD-CONTIGUOUS"]["params"] == ["out"] and c["TD-EMPTY"]["when"] == "self.numel == 0"
    # the internal codes are the vocabulary's (the vendor's return-code page): nothing to add; a
    # status it lacks, with its code, goes to the pack's vocabulary
    assert vocabulary_additions([d]) == {}
    renamed = replace(toy_dim(), errors=tuple(replace(e, status="ACLNN_ERR_INNER_TOY_TILING")
                                              if e.status == "ACLNN_ERR_INNER_TILING_ERROR" else e
                                              for e in toy_dim().errors))
    assert vocabulary_additions([draft_spec(renamed, vocab, "toy/ops: y.md")]) == {
        "status_codes": [{"name": "ACLNN_ERR_INNER_TOY_TILING", "code": 561002}]}


def test_optional_parameters_are_never_not_null(vocab):
    facts = toy_loss(prototype=tuple(replace(p, optional=p.name == "target") for p in toy_loss().prototype),
                     errors=(error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的指针类型入参是空指针。", 1),))
    null = _by_id(draft_clauses(facts, vocab).constraints)["TLB-NULL"]
    assert null["params"] == ["gradOutput", "self", "out"]  # every required pointer, not target


def test_a_status_without_a_code_is_left_for_review(vocab):
    facts = toy_loss(errors=(error("ACLNN_ERR_SOMETHING", None, "self的数据类型不在支持的范围之内。", 1),))
    draft = draft_clauses(facts, vocab)
    dtype = [c for c in draft.constraints if c["kind"] == "dtype_in" and "self" in c["params"]][0]
    assert dtype["on_violation"] == "unspecified"
    quotes = [r["source"]["quote"] for r in draft.reviews]
    assert quotes == ["ACLNN_ERR_SOMETHING: self的数据类型不在支持的范围之内"]


def test_parameters_the_spec_cannot_pass_are_left_out_and_reviewed(vocab):
    proto = (*toy_loss().prototype, PrototypeParam("extras", "aclFloatArray*", True, False))
    draft = draft_clauses(toy_loss(prototype=proto), vocab)
    assert "extras" not in draft.ctx.params and draft.ctx.omitted == {"extras": "aclFloatArray*"}
    assert any("extras (aclFloatArray*)" in r["source"]["quote"] for r in draft.reviews)
    only_arrays = (PrototypeParam("x", "aclBoolArray*", True, False),)  # (no tensor to pass)
    with pytest.raises(PageError, match="function prototype"):
        draft_clauses(toy_loss(prototype=only_arrays, params=()), vocab)


def test_product_lines_the_vocabulary_lacks(vocab):
    lines = products(("Atlas A3 系列产品", None, True), ("Atlas Z9 演示产品", None, True),
                     ("Atlas 训练系列产品", "atlas-training", False))
    d = draft_spec(toy_loss(products=lines), vocab, "x")
    assert d.spec["products"] == ["atlas-a3", "atlas-z9"]  # a label that slugs to a known id is it
    assert list(d.spec["unsupported"]) == ["atlas-training"]
    assert vocabulary_additions([d]) == {"products": [{"id": "atlas-z9", "doc_names": ["Atlas Z9 演示产品"]}]}
    with pytest.raises(PageError, match="product support"):
        draft_clauses(toy_loss(products=lines[2:]), vocab)


def test_unread_usage_and_constraints_sentences_become_reviews(vocab):
    where = Where("约束说明", 310)
    facts = toy_loss(constraints=(Sentence("self的最后一维不能超过4096。", where),
                                  Sentence("本接口用于训练场景。", where)))
    quotes = [r["source"]["quote"] for r in draft_clauses(facts, vocab).reviews]
    assert "self的最后一维不能超过4096。" in quotes and "本接口用于训练场景。" not in quotes
    assert "'none'表示不应用缩减" not in quotes  # a usage note explaining, not promising


def test_unrelated_tensors_get_a_guessed_shape_and_a_review(vocab):
    params = (param("self", 1, dtypes=("FLOAT",)), param("out", 2, direction="output", dtypes=("FLOAT",)))
    proto = (PrototypeParam("self", "aclTensor*", True, False),
             PrototypeParam("out", "aclTensor*", False, False))
    d = draft_spec(toy_loss(api="aclnnToyCopy", prototype=proto, params=params, errors=()), vocab, "x")
    assert d.spec["generate"]["args"] == {"self": "self_shape", "out": "self_shape"}
    guesses = [r for r in d.draft.reviews if r["source"]["doc"] == "contract"]
    assert len(guesses) == 1 and "shapes of out" in guesses[0]["source"]["quote"]


# -- the drafted spec loads, and its program builds valid and breaking cases -----------------------
def _load(d, tmp_path):
    """The draft as `conformance draft` writes it, loaded with its pack's vocabulary."""
    write_pack(tmp_path, [d])
    vocab, _ = vocabulary_for((tmp_path,))
    return load_operator(tmp_path / f"{d.api}.yaml", vocab), vocab


@pytest.mark.parametrize("facts", [toy_loss, toy_dim], ids=["loss", "dim"])
def test_the_draft_loads_and_its_cases_build(facts, vocab, tmp_path):
    d = draft_spec(facts(), vocab, "toy/ops: x.md")
    spec, vocab = _load(d, tmp_path)
    specs = SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "test")
    assert len(spec.reviews) == len(d.draft.reviews)
    for product in spec.products:
        for dtype in spec.test_dtypes(product):
            for mode in ("min", "max"):
                case = build_case(spec, vocab, product, dtype, FixedChooser(mode))
                assert explain(case, specs).expected in ("success", "unspecified"), (product, dtype, mode)
    for c in spec.constraints:  # each coded clause broken alone gets its code
        if c.status is None:
            continue
        cases = broken_cases(spec, vocab, spec.products[0], spec.test_dtypes(spec.products[0])[0],
                             FixedChooser("max"), c.id)
        assert cases, c.id
        for case in cases:
            e = explain(case, specs)
            assert e.expected == "error" and c.status in e.status, (c.id, e.expected, e.status)


def test_where_names_rows_of_one_table_once():
    from conformance.draft.context import source

    s = source([Sentence("a", at(1)), Sentence("b", at(3)), Sentence("c", Where("约束说明", 9))])
    assert s["where"] == f"{at(1).section}, parameters table, rows 1, 3 (lines 110, 130); 约束说明 (line 9)"
    assert s["quote"] == "a / b / c"


def test_products_fixture_has_the_unsupported_line():
    assert [p.supported for p in PRODUCTS] == [True, True, False]


# -- clauses joined or left out so that a run can break each alone ----------------------------------
def test_a_tensor_tied_to_a_stricter_dtype_list_moves_to_it(vocab):
    rows = tuple(replace(r, dtypes=("FLOAT", "FLOAT16"), dtype_same_as=None,
                         usage=(*r.usage, Sentence("数据类型与self一致。", r.where)))
                 if r.name == "target" else r for r in toy_loss().params)
    errors = (error("ACLNN_ERR_PARAM_INVALID", 161002, "self、target的数据类型不在支持的范围之内。", 1),)
    dtype = [c for c in draft_clauses(toy_loss(params=rows, errors=errors), vocab).clauses
             if c["kind"] == "dtype_in"]
    # self (and gradOutput, "与self一致") are tied to target, whose list is stricter: one clause
    assert [(c["params"], c["per_product"]["atlas-a2"]) for c in dtype] == [
        (["target", "gradOutput", "self"], ["FLOAT", "FLOAT16"]),
        (["out"], ["FLOAT", "FLOAT16", "BFLOAT16"])]


SPEC = """
api: aclnnToyPair
summary: a pair
documents: {upstream: "toy"}
doc_version: {release: "test"}
products: [atlas-a2]
params:
  self: {kind: tensor, role: input}
  out: {kind: tensor, role: output}
generate:
  draws:
    shape: {shape: {rank: [1, 4], dims: [1, 3]}}
  args: {self: shape, out: shape}
constraints:
  - {id: TP-DTYPE, source: {doc: upstream, quote: q}, kind: dtype_in, params: [self, out],
     per_product: {atlas-a2: [FLOAT]}, on_violation: ACLNN_ERR_PARAM_INVALID}
  - {id: TP-SHAPE, source: {doc: upstream, quote: q}, kind: same_shape, params: [self, out],
     on_violation: ACLNN_ERR_PARAM_INVALID}
  - {id: TP-RANK, source: {doc: upstream, quote: q}, kind: rank_in, params: [self], max: 8,
     on_violation: ACLNN_ERR_PARAM_INVALID}
  - {id: TP-RANK-OUT, source: {doc: upstream, quote: q}, kind: rank_in, params: [out], max: 8,
     on_violation: unspecified}
"""


def test_clauses_no_case_breaks_alone_are_found(vocab):
    from conformance.draft.breakable import unbreakable

    # out's rank moves only with self's (same_shape): neither rank clause breaks alone
    assert unbreakable(SPEC, "aclnnToyPair", vocab) == ([], ["TP-RANK", "TP-RANK-OUT"])
    # as merges.tie_ranks drafts it: one limit over the tensors of one shape
    merged = SPEC.replace("params: [self], max: 8", "params: [self, out], max: 8")
    merged = merged.split("  - {id: TP-RANK-OUT")[0]
    assert unbreakable(merged, "aclnnToyPair", vocab) == ([], [])
    # a clause the drawn valid cases break (shapes of rank 1-4 against a limit of 2) is named first
    assert unbreakable(merged.replace("max: 8", "max: 2"), "aclnnToyPair", vocab) == (["TP-RANK"], [])


def test_a_dtype_list_of_every_dtype_plans_no_item_breaking_it(vocab):
    from conformance.run.plan import plan
    from conformance.spec.loader import read_operator

    every = ", ".join(vocab.dtypes)
    text = SPEC.replace("per_product: {atlas-a2: [FLOAT]}", f"per_product: {{atlas-a2: [{every}]}}")
    spec = read_operator(specs_dir() / "aclnnToyPair.yaml", vocab, text=text)
    subjects = {i.subject for i in plan(SpecSet(vocab, {spec.api: spec}, "1", "t"), [spec.api], ["atlas-a2"])}
    assert "TP-DTYPE" not in subjects and "TP-SHAPE" in subjects  # a copy operator: nothing to break
    spec = read_operator(specs_dir() / "aclnnToyPair.yaml", vocab, text=SPEC)
    assert "TP-DTYPE" in {i.subject for i in plan(SpecSet(vocab, {spec.api: spec}, "1", "t"),
                                                  [spec.api], ["atlas-a2"])}


def test_a_coded_clause_the_drawn_shapes_break_is_left_for_review(vocab, tmp_path):
    rows = tuple(replace(r, rank=(1, 1) if r.name == "self" else (2, 2)) if r.name in ("self", "out")
                 else r for r in toy_dim().params)
    errors = (*toy_dim().errors, error("ACLNN_ERR_PARAM_INVALID", 161002, "self的维度超过1维。", 4))
    d = draft_spec(toy_dim(params=rows, errors=errors), vocab, "toy: x.md")
    ranks = [c for c in d.spec["constraints"] if c["kind"] == "rank_in"]
    assert [(c["params"], c.get("min"), c.get("max")) for c in ranks] == [(["self", "out"], 1, None)]
    # no shape honours them all (the table's max 2 gave way to the coded max 1 before)
    assert {"TD-RANK", "TD-RANK-4"} <= set(d.draft.implied)
    reviews = {r["source"]["quote"]: r for r in d.draft.reviews}
    assert reviews["self的维度超过1维"]["closest"] == "rank"
    assert [o.checkable for o in d.draft.outcomes if o.row == 3] == [False]
    spec, _ = _load(d, tmp_path)  # and what is left loads and dry-runs
    assert spec.api == "aclnnToyDim"

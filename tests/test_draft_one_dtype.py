"""Error rows naming the one dtype a tensor must have ("indicesOut的数据类型不为int64", "传入的sorter不是
INT64类型": conformance/draft/dtype_phrasings.py), kept only where the parameter table lists exactly
that dtype, and the dtype ties read beyond "dtypes differ"'s 12 characters ("foundInf的数据类型与
currentScale不一致") or as a requirement ("gradOut的数据类型需要与self一致"). An invented page
(PageFacts built by hand, no vendor text), drafted and run against the oracle."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param
from helpers import oracle_quick

from conformance.cli.main import main
from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match
from conformance.draft.stats import page_stats
from conformance.spec.loader import specs_dir

FLOATS = ("FLOAT", "FLOAT16")
API = "aclnnToyArgPool"
NAMES = ("self", "currentScale", "gradOut", "sorter", "indicesOut", "countsOut", "out")


def toy_pool(*rows: str) -> PageFacts:
    """aclnnToyArgPool(self, currentScale, gradOut, sorter?, out, indicesOut, countsOut): FLOAT or
    FLOAT16 but sorter INT64, indicesOut INT64, countsOut INT32 or INT64; a null row, a dtype row
    on self, then ``rows`` (code 161002 each)."""
    proto = (*(PrototypeParam(n, "aclTensor*", const=True, optional=n == "sorter")
               for n in ("self", "currentScale", "gradOut", "sorter")),
             *(PrototypeParam(n, "aclTensor*", const=False, optional=False)
               for n in ("out", "indicesOut", "countsOut")))
    same = ("shape与self一致。",)
    params = (param("self", 1, dtypes=FLOATS), param("currentScale", 2, dtypes=FLOATS, usage=same),
              param("gradOut", 3, dtypes=FLOATS, usage=same),
              param("sorter", 4, dtypes=("INT64",), usage=same),
              param("out", 5, direction="output", dtypes=FLOATS, usage=same),
              param("indicesOut", 6, direction="output", dtypes=("INT64",), usage=same),
              param("countsOut", 7, direction="output", dtypes=("INT32", "INT64"), usage=same))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的self、currentScale、gradOut、out、indicesOut或"
                    "countsOut是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, "self的数据类型不在支持的范围之内。", 2),
              *(error("ACLNN_ERR_PARAM_INVALID", 161002, r, 3 + i) for i, r in enumerate(rows)))
    return PageFacts(API, "toy/docs/aclnnToyArgPool.md", PRODUCTS[:2], proto, params, errors,
                     deterministic=None)


def test_one_dtype_phrasings():
    for text, params, dtypes in [
        ("indicesOut的数据类型不为int64", ("indicesOut",), ["int64"]),
        ("out数据类型不为COMPLEX64", ("out",), ["COMPLEX64"]),
        ("indicesOut和countsOut的数据类型不为INT64", ("indicesOut", "countsOut"), ["INT64"]),
        ("self、gradOut的数据类型不为BFLOAT16时", ("self", "gradOut"), ["BFLOAT16"]),  # 时 closing it
        ("传入的sorter不是INT64类型", ("sorter",), ["INT64"]),
        ("countsOut的数据类型不是INT32或INT64", ("countsOut",), ["INT32", "INT64"]),
        ("countsOut的数据类型非DT_INT64", ("countsOut",), ["DT_INT64"]),
    ]:
        m = match(text, NAMES)
        assert m is not None and (m.pattern, m.kinds, m.params, m.limits) == (
            "one dtype", ("dtype_in",), params, {"dtypes": dtypes}), text


def test_sentences_one_dtype_does_not_read():
    assert match("indicesOut和countsOut的数据类型都不是INT32或INT64", NAMES) is None  # 都: neither, or each?
    # more than the dtype: read as before (dtype not supported), no dtypes named
    said = match("sorter的数据类型不是INT64，或sorter为空tensor", NAMES)
    assert said is not None and (said.pattern, said.limits) == ("dtype not supported", {})
    value = match("sorter不为1", NAMES)  # a value, no dtype
    assert value is not None and value.pattern == "single value"


def test_dtype_ties_beyond_twelve_characters_and_as_requirements():
    for text, params in [("out的数据类型与currentScale不一致", ("out", "currentScale")),
                         ("gradOut的数据类型需要与self一致", ("gradOut", "self")),
                         ("gradOut的数据类型须与self、out保持一致", ("gradOut", "self", "out"))]:
        m = match(text, NAMES)
        assert m is not None and (m.pattern, m.params) == ("dtypes differ", params), text


def _clauses(d, kind):
    return [(c["params"], c.get("per_product"), c["on_violation"]) for c in d.spec["constraints"]
            if c["kind"] == kind]


def _checkable(d):
    return {o.sentence.text: o.checkable for o in d.draft.outcomes}


def test_a_dtype_the_table_lists_alone_is_the_rows_clause(vocab):
    rows = ("indicesOut的数据类型不为int64", "传入的sorter不是INT64类型")
    d = draft_spec(toy_pool(*rows), vocab, "toy: x.md")
    int64 = {"atlas-a2": ["INT64"], "atlas-training": ["INT64"]}
    floats = {p: list(FLOATS) for p in int64}
    assert _clauses(d, "dtype_in") == [
        (["self"], floats, "ACLNN_ERR_PARAM_INVALID"),
        (["currentScale", "gradOut", "out"], floats, "unspecified"),
        (["sorter", "indicesOut"], int64, "ACLNN_ERR_PARAM_INVALID"),  # the two rows' code
        (["countsOut"], {p: ["INT32", "INT64"] for p in int64}, "unspecified")]
    assert all(_checkable(d)[r] for r in rows)


def test_a_dtype_the_table_does_not_list_alone_is_left_for_review(vocab):
    """countsOut lists INT32 and INT64: "不为INT64" says INT32 is an error, the table it is not;
    out lists FLOAT16 too; "不是INT32或INT64" on indicesOut (INT64 only) says INT32 is no error."""
    rows = ("countsOut的数据类型不为INT64", "out的数据类型不为FLOAT32",
            "indicesOut的数据类型不是INT32或INT64",
            "indicesOut、countsOut的数据类型不为INT64")  # (one of the two agrees: not the sentence)
    d = draft_spec(toy_pool(*rows), vocab, "toy: x.md")
    assert not any(_checkable(d)[r] for r in rows)
    assert {c[2] for c in _clauses(d, "dtype_in") if c[0] != ["self"]} == {"unspecified"}
    quoted = {c["source"]["quote"] for c in d.spec["constraints"] if c["kind"] == "review"}
    assert set(rows) <= quoted


def test_dtype_ties_become_coded_clauses(vocab):
    rows = ("currentScale的数据类型与self不一致", "gradOut的数据类型需要与self一致")
    d = draft_spec(toy_pool(*rows), vocab, "toy: x.md")
    assert _clauses(d, "same_dtype") == [
        (["self", "currentScale", "gradOut"], None, "ACLNN_ERR_PARAM_INVALID")]
    assert all(_checkable(d)[r] for r in rows)
    assert page_stats(d)["error_rows_checkable"] == 4


@pytest.mark.slow
def test_the_draft_lints_and_its_new_clauses_are_judged(vocab, tmp_path):
    rows = ("indicesOut的数据类型不为int64", "传入的sorter不是INT64类型", "gradOut的数据类型需要与self一致",
            "currentScale的数据类型与self不一致")
    d = draft_spec(toy_pool(*rows), vocab, "toy: x.md")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / f"{API}.yaml").write_text(d.text, encoding="utf-8")
    (pack / "vocabulary.yaml").write_text((specs_dir() / "vocabulary.yaml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    assert main(["lint", "--specs", str(pack)]) == 0
    report = oracle_quick(pack, API, tmp_path)
    assert report["errors"] == [] and report["findings"] == []
    new = {c["id"] for c in d.spec["constraints"] if c["kind"] in ("dtype_in", "same_dtype")
           and c["on_violation"] != "unspecified"}
    judged = {r["clause"] for r in report["results"] if r["kind"] == "status" and r["outcome"] == "pass"
              and r["cases"] > 0}
    assert len(new) == 3 and new <= judged

"""Shape and dtype rows read as equalities they do not state (each a false finding against a
correct kernel: valid cases drew the tensors equal, breaks expected any other refused), and rows on
every tensor that leave out the tensors the page sets apart (draft/pattern_table.py "shapes differ",
draft/scope_all.py). Sentences and pages are invented, in the vendor's layout."""
from __future__ import annotations

import pytest
from draft_facts import PRODUCTS, error, param
from test_draft_near_misses import INVALID, NULLS, VOCAB, _drafted

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam
from conformance.draft.patterns import match


@pytest.mark.parametrize("text", [
    "根据池化语义推算的out的shape与传入的shape不一致",  # the pooled shape, not self's
    "按池化语义得到的输出shape与接口传入的out不同",
    "out的shape不等于self根据mode拆分后的shape",  # a split of self: part of its shape
    "self、mode、out的shape与参数说明中不一致",  # each as its own row describes it
    "输入tensor之间的shape信息不匹配",
    "self、mode和out的shape不匹配",  # three "not matching": compatible (a pooled out), not equal
])
def test_a_shape_computed_from_another_is_not_that_shape(text: str) -> None:
    """Read as same_shape(self, out), valid cases drew out with self's shape and breaks expected
    any other refused: both false findings against a pooling or splitting kernel."""
    found = match(text, ["self", "out", "mode"])
    assert found is None or found.pattern != "shapes differ"
    d = _drafted(text)
    assert not [c for c in d.spec["constraints"]
                if c["kind"] == "same_shape" and c["source"]["quote"] == text]


@pytest.mark.parametrize("text", ["self和out的shape不一致", "传入的计算输入的shape不一致",
                                  "self和out的shape不匹配"])
def test_plain_shape_rows_still_read(text: str) -> None:
    assert match(text, ["self", "out"]).pattern == "shapes differ"


def test_a_shape_row_on_every_input_leaves_out_the_tensors_pinned_to_one_element(tmp_path) -> None:
    """"传入的计算输入的shape不一致时" beside "…的shape大小不为1时": read over every input, valid
    cases drew the one-element tensors with var's shape (a kernel refuses them)."""
    from test_draft_rows import _valid_and_broken_alone

    names = ("varRef", "m", "grad", "lr", "beta")
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "varRef", optional=False) for n in names)
    params = tuple(param(n, i + 1, dtypes=("FLOAT",), rank=(1, 1) if n in ("lr", "beta") else (1, 8))
                   for i, n in enumerate(names))
    pinned = "lr、beta的shape大小不为1时"
    rows = ("传入的计算输入参数是空指针时", "传入的计算输入的shape不一致时", pinned)
    errors = tuple(error(NULLS if i == 0 else INVALID, 161001 if i == 0 else 161002, text, i + 1)
                   for i, text in enumerate(rows))
    facts = PageFacts("aclnnToyAdam", "toy/docs/aclnnToyAdam.md", PRODUCTS[:1], proto, params, errors,
                      deterministic=None)
    d = draft_spec(facts, VOCAB, "toy: x.md")
    same = [c["params"] for c in d.spec["constraints"] if c["kind"] == "same_shape"]
    assert same == [["varRef", "m", "grad"]]
    (numel,) = [c for c in d.spec["constraints"] if c["source"]["quote"] == pinned]
    assert numel["all"] == ["lr.numel == 1", "beta.numel == 1"]
    draws, args = d.spec["generate"]["draws"], d.spec["generate"]["args"]
    assert draws[args["lr"]] == draws[args["beta"]] == {"expr": "[1]"}
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True]
    _valid_and_broken_alone(d, tmp_path)


def test_a_dtype_row_on_every_tensor_leaves_out_those_listed_with_other_dtypes(tmp_path) -> None:
    """"如果传入参数类型为aclTensor，数据类型不同" over an INT64 lengths tensor beside float ones:
    read over it, valid cases drew the lengths as floats (a kernel refuses them)."""
    from test_draft_rows import _valid_and_broken_alone

    names = ("input", "hx", "lengths", "out")
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "out", optional=False) for n in names)
    params = tuple(param(n, i + 1, dtypes=("INT64",) if n == "lengths" else ("FLOAT", "FLOAT16"),
                         direction="output" if n == "out" else "input") for i, n in enumerate(names))
    rows = ("如果传入参数类型为aclTensor，数据类型不同",
            "如果传入参数类型为aclTensor，数据类型不在支持的范围之内")
    errors = tuple(error(INVALID, 161002, text, i + 1) for i, text in enumerate(rows))
    facts = PageFacts("aclnnToyRnn", "toy/docs/aclnnToyRnn.md", PRODUCTS[:1], proto, params, errors,
                      deterministic=None)
    d = draft_spec(facts, VOCAB, "toy: x.md")
    same = [c["params"] for c in d.spec["constraints"] if c["kind"] == "same_dtype"]
    assert same == [["input", "hx", "out"]]
    _valid_and_broken_alone(d, tmp_path)

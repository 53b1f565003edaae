"""Error rows said where an argument is given ("当weight非空指针时，…", "X存在输入时，shape与Y不相同",
"X不为空时，X的size与input的channel轴不一致"): conformance/draft/conditions.py on sentences we wrote.
(The drafts of the vendor pages keep such a clause only where breakable.py finds the valid cases
valid and a case breaking it alone.)"""
from __future__ import annotations

from types import SimpleNamespace

from conformance.draft.conditions import _not_empty, condition, read

NAMES = ["input", "weight", "scaleOffsetOptional", "antiScaleTensor", "runningMeanOptional"]


def _ctx(**optional: bool) -> SimpleNamespace:
    return SimpleNamespace(tensors=list(optional), params={n: {"kind": "tensor", "optional": o}
                                                           for n, o in optional.items()})


def test_a_required_tensor_given_is_a_condition_always_true():
    # a required tensor is always given: the body is the rule on it (was: no condition read)
    assert condition(_ctx(weight=False), "weight非空指针") == ("present(weight)", {})
    assert condition(_ctx(weight=True), "weight非空指针") == ("present(weight)", {})
    assert condition(_ctx(weight=False), "bias非空指针") is None  # no tensor of the page's


def test_a_given_tensor_is_the_subject_of_a_shape_body_with_a_long_name():
    found = read("scaleOffsetOptional存在输入时，shape与antiScaleTensor不相同", NAMES)
    assert found is not None and found.params == ("scaleOffsetOptional", "antiScaleTensor")
    assert (found.limits["condition"], found.limits["body"]) == ("scaleOffsetOptional存在输入", "same_shape")
    assert found.limits["body_text"] == "scaleOffsetOptional的shape与antiScaleTensor不相同"
    assert read("scaleOffsetOptional存在输入时，shape与gamma不相同", NAMES) is None  # gamma: no parameter


def test_not_empty_is_given_only_for_a_channel_tie_on_that_tensor():
    ctx = _ctx(input=False, runningMeanOptional=True)
    tie = read("当runningMeanOptional不为空时，runningMeanOptional的size与input的channel轴不一致", NAMES)
    assert tie is not None and tie.limits["body"] == "channel"
    assert _not_empty(ctx, SimpleNamespace(limits=tie.limits)) == ("present(runningMeanOptional)", {})
    assert condition(ctx, tie.limits["condition"]) is None  # (不为空 alone: maybe "not empty")
    dtype = read("当runningMeanOptional不为空时，runningMeanOptional的数据类型不在支持的范围之内", NAMES)
    assert dtype is not None and _not_empty(ctx, SimpleNamespace(limits=dtype.limits)) is None
    other = {**tie.limits, "condition": "input不为空"}  # the tie is on another tensor
    assert _not_empty(ctx, SimpleNamespace(limits=other)) is None


def _page(rows: tuple[str, ...], usage: dict[str, tuple[str, ...]] | None = None):  # noqa: ANN202
    """aclnnToyNorm(input, scale, offsetOptional, runningMeanOptional, out): float tensors, the
    optional ones optional, a null row and ``rows``."""
    from draft_facts import FLOATS, PRODUCTS, error, param

    from conformance.draft.facts import PageFacts, PrototypeParam

    names = ("input", "scale", "offsetOptional", "runningMeanOptional", "out")
    proto = tuple(PrototypeParam(n, "aclTensor*", const=n != "out", optional=n.endswith("Optional"))
                  for n in names)
    layouts = ("NC", "NCL", "NCHW")  # (each puts the channel axis at 1)
    params = tuple(param(n, i + 1, direction="output" if n == "out" else "input", dtypes=FLOATS,
                         rank=(2, 4) if n in ("input", "out") else (1, 1), usage=(usage or {}).get(n, ()),
                         formats=layouts if n in ("input", "out") else ("ND",))
                   for i, n in enumerate(names))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, "传入的input、scale或out是空指针。", 1),
              *(error("ACLNN_ERR_PARAM_INVALID", 161002, text, 2 + i) for i, text in enumerate(rows)))
    return PageFacts("aclnnToyNorm", "toy/docs/aclnnToyNorm.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def test_the_given_readings_draft_clauses_valid_cases_keep_and_a_case_breaks_alone(vocab, tmp_path):
    """Each reading, in a whole draft: the clause is kept (valid draws honour it, a case breaks it
    and no other: what a run needs), and says what the row says."""
    from test_draft_rows import _valid_and_broken_alone

    from conformance.draft.emit import draft_spec

    rows = ("offsetOptional存在输入时，shape与scale不相同。",
            "当runningMeanOptional不为空时，runningMeanOptional的size与input的channel轴不一致。")
    d = draft_spec(_page(rows, {"out": ("shape与input一致。",), "offsetOptional": ("shape与scale一致。",)}),
                   vocab, "toy: x.md")
    exprs = [c["all"] for c in d.spec["constraints"] if c["kind"] == "expr"]
    assert ["not (present(offsetOptional)) or scale.shape == offsetOptional.shape"] in exprs
    assert any(all(t.startswith("not (present(runningMeanOptional)) or ") for t in e) and
               any("runningMeanOptional" in t and "input.shape[1]" in t for t in e) for e in exprs), exprs
    assert [o.checkable for o in d.draft.outcomes] == [True, True, True]
    _valid_and_broken_alone(d, tmp_path)

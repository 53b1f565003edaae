"""Whose promoted dtype a cast row means when it names none ("推导出的数据类型无法转换为指定输出out的
类型", promotion_clauses.py): the page's one promotion clause, coded or from the notes; else the
page's one input when it is a tensor list; else the row is not read. Invented pages (PageFacts
built by hand, no vendor text)."""
from __future__ import annotations

from draft_facts import PRODUCTS, error, param

from conformance.draft.emit import draft_spec
from conformance.draft.facts import PageFacts, PrototypeParam

CAST = "推导出的数据类型无法转换为指定输出out的类型。"
DTYPES = ("FLOAT", "INT32")


def toy(inputs: tuple[tuple[str, str], ...], usage: dict[str, str] | None = None) -> PageFacts:
    """aclnnToyJoin(inputs..., out): FLOAT/INT32 inputs, a FLOAT/BOOL out (every input dtype casts
    to FLOAT, none to BOOL: the cast row can be broken); a null row and the cast row."""
    proto = (*(PrototypeParam(n, c, const=True, optional=False) for n, c in inputs),
             PrototypeParam("out", "aclTensor*", const=False, optional=False))
    names = [n for n, _ in inputs]
    params = (*(param(n, i + 1, dtypes=DTYPES, usage=tuple((usage or {}).get(n, ())))
                for i, n in enumerate(names)),
              param("out", len(names) + 1, direction="output", dtypes=("FLOAT", "BOOL")))
    errors = (error("ACLNN_ERR_PARAM_NULLPTR", 161001, f"传入的{'、'.join(names)}、out是空指针。", 1),
              error("ACLNN_ERR_PARAM_INVALID", 161002, CAST, 2))
    return PageFacts("aclnnToyJoin", "toy/docs/aclnnToyJoin.md", PRODUCTS[:1], proto, params, errors,
                     deterministic=None)


def _casts(d) -> list[tuple[list[str], str, str]]:
    return [(c["params"], c["to"], c["on_violation"])
            for c in d.spec["constraints"] if c["kind"] == "castable"]


def test_the_one_input_list_is_what_is_promoted(vocab):
    d = draft_spec(toy((("tensors", "aclTensorList*"),)), vocab, "toy: x.md")
    assert _casts(d) == [(["tensors"], "out", "ACLNN_ERR_PARAM_INVALID")]
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]


def test_the_notes_promotion_is_what_is_promoted(vocab):
    note = {"a": ("a与b的数据类型满足数据类型推导规则。",)}
    d = draft_spec(toy((("a", "aclTensor*"), ("b", "aclTensor*")), note), vocab, "toy: x.md")
    assert _casts(d) == [(["a", "b"], "out", "ACLNN_ERR_PARAM_INVALID")]
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [True]


def test_two_inputs_and_no_promotion_is_not_read(vocab):
    d = draft_spec(toy((("a", "aclTensor*"), ("b", "aclTensor*"))), vocab, "toy: x.md")
    assert _casts(d) == []
    assert [o.checkable for o in d.draft.outcomes if o.row == 1] == [False]

"""What one usage-note sentence of the parameter table says, read mechanically: a relation to other
tensors (dtype or shape the same as, broadcasts with, is the broadcast of), an attribute's
enumerated values, whether empty tensors are supported. None of these gives a status code: the
error table does (clauses.py joins the two)."""
from __future__ import annotations

import re
from collections.abc import Collection

from conformance.draft.patterns import is_conditional, named

_SAME = r"(?:一致|相同|一样|保持一致|完全一致)"
_DTYPE_SAME = re.compile(rf"(?:数据类型|dtype).{{0,30}}{_SAME}|{_SAME}.{{0,4}}的?数据类型")
_SHAPE_SAME = re.compile(rf"(?:shape|形状).{{0,30}}{_SAME}|{_SAME}.{{0,4}}的?(?:shape|形状)")
_BROADCAST_WITH = re.compile(r"broadcast\s*关系|满足\s*broadcast|可以?\s*broadcast|能够?\s*broadcast")
_BROADCAST_OF = re.compile(r"broadcast\s*(?:之后|后|以后)的?\s*(?:tensor的)?\s*(?:shape|形状)|"
                           r"broadcast\s*结果")
_NOT_RELATION = re.compile(r"推导|转换|不一致|不同|不要求|无需|无关|第.维|维度大小|某一维|轴|size|长度|"
                           r"元素个数")
_CLAUSES = re.compile(r"[，,；;]")
_NOT_PLAIN = re.compile(r"@|乘|在[^，。]{1,30}时|如果|若")
_RANK_WORDS = re.compile(r"shape\s*的?维度|维度数|维数")  # "shape维度与self一致": the rank, not the shape
_EMPTY_NO = re.compile(r"不支持\s*空\s*(?:tensor|Tensor|张量)|不能为?\s*空\s*(?:tensor|Tensor)")
_EMPTY_YES = re.compile(r"支持\s*空\s*(?:tensor|Tensor|张量)")
_ENUM_NAMED = re.compile(r"(-?\d+)\s*[（(]\s*['\"‘’“”]?\s*([A-Za-z_][A-Za-z0-9_-]*)\s*['\"‘’“”]?\s*[)）]")
_ENUM_PLAIN = re.compile(r"(?:取值为|取值范围为|取值只能为|仅支持|只支持|支持取值|可选值为|取值支持)"
                         r"\s*[:：]?\s*[\[{]?((?:-?\d+\s*(?:、|,|，|/|\||或者|或|和)\s*)+-?\d+)[\]}]?")


def relations(text: str, owner: str, tensors: Collection[str],
              inputs: Collection[str] | None = None) -> list[tuple[str, tuple[str, ...]]]:
    """(kind, params) for each relation ``text`` (a usage note of ``owner``) states with the
    tensors it names, clause by clause ("，"): same_dtype, same_shape, broadcastable, or
    broadcast_of (owner is the broadcast of the others)."""
    if is_conditional(text) or _NOT_PLAIN.search(text) or owner not in tensors:
        return []  # "当reduction为0时，shape需要与…", "在alpha不为0时…", "与mat@vec…": not plainly
    out: list[tuple[str, tuple[str, ...]]] = []
    for part in _CLAUSES.split(text):
        out += _relations(part, owner, tensors, inputs)
    return list(dict.fromkeys(out))


def _relations(text: str, owner: str, tensors: Collection[str],
               inputs: Collection[str] | None) -> list[tuple[str, tuple[str, ...]]]:
    others = tuple(n for n in named(text, tensors) if n != owner)
    if not others and "输入" in text and inputs is not None and len(inputs) == 1 and owner not in inputs:
        others = tuple(inputs)  # an output "与输入一致" where there is one input tensor
    if not others:
        return []
    group = (owner, *others)
    if _BROADCAST_OF.search(text):
        return [("broadcast_of", group)]
    out: list[tuple[str, tuple[str, ...]]] = []
    if _BROADCAST_WITH.search(text):
        out.append(("broadcastable", group))
    if _NOT_RELATION.search(text):
        return out
    if _DTYPE_SAME.search(text):
        out.append(("same_dtype", group))
    if _SHAPE_SAME.search(text) and "broadcast" not in text and not _RANK_WORDS.search(text):
        out.append(("same_shape", group))
    return out


def empty_support(text: str) -> bool | None:
    """True for "支持空Tensor", False for "不支持空Tensor", None when the sentence says neither."""
    if _EMPTY_NO.search(text):
        return False
    return True if _EMPTY_YES.search(text) else None


_ENUM_LINE = re.compile(r"^\s*(-?\d+)\s*[：:]\s*['\"‘“]?([A-Za-z_][A-Za-z0-9_]*)")


def enumeration_lines(texts: list[str]) -> tuple[dict[int, str], list[int]] | None:
    """Values listed one per sentence: "0：none，表示…", "1：mean，…" → ({0: none, 1: mean}, the
    indices of those sentences); None for fewer than two."""
    found = [(i, m.groups()) for i, t in enumerate(texts) if (m := _ENUM_LINE.match(t))]
    if len(found) < 2:
        return None
    return {int(k): v for _, (k, v) in found}, [i for i, _ in found]


def enumeration(text: str) -> dict[int, str] | None:
    """An attribute's documented values: "支持0('none')|1('mean')|2('sum')" → {0: none, 1: mean,
    2: sum}; "取值为0、1、2" → {0: "0", 1: "1", 2: "2"}; None when the sentence lists none."""
    pairs = _ENUM_NAMED.findall(text)
    if len(pairs) >= 2:
        return {int(k): v for k, v in pairs}
    if m := _ENUM_PLAIN.search(text):
        return {int(n): n for n in re.findall(r"-?\d+", m[1])}
    return None


_CONSTRAINT_WORDS = re.compile(r"需要|需|必须|要求|不支持|仅支持|只支持|取值|范围|一致|相同|满足|不能|"
                               r"不可|不得|小于|大于|等于|只能|维|shape|长度|不超过|至少|至多|约束|限制|不允许")


def looks_like_constraint(text: str) -> bool:
    """A sentence a person should read when nothing encoded it (a promise or a limit)."""
    return bool(_CONSTRAINT_WORDS.search(text)) and not re.fullmatch(r"[-–—\s]*", text)

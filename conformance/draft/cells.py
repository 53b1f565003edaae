"""What one parameter-table cell says: a name and C type, a direction, dtypes (or "same as"),
formats, a rank range, non-contiguous support. Each reader returns ``None`` for a cell it cannot
read, so the caller can send the sentence to review; "-" and empty cells read as "nothing said".
"""
from __future__ import annotations

import re

from conformance.draft.prototype import normalise_ctype
from conformance.draft.words import NAME
from conformance.spec.vocabulary import Vocabulary

EMPTY = ("", "-", "—", "–", "/", "无", "N/A", "NA", "不涉及", "--")
# what a dtype cell of a non-tensor argument may say instead of a dtype: its C type
C_TYPE_WORDS = {"int", "char", "char*", "string", "str", "aclintarray", "aclintarray*", "aclboolarray",
                "aclboolarray*", "aclfloatarray", "aclfloatarray*", "aclscalar", "aclscalar*",
                "int64_t", "int32_t", "int8_t", "uint64_t", "double", "float", "bool", "const char*"}
_NAME = re.compile(r"^\s*(" + NAME + r")\s*(?:[（(]\s*([^）)]*)[）)])?")
_SAME = re.compile(r"^(?:数据类型)?(?:需要|需|必须)?(?:与|和|同)\s*[`'“\"]?(" + NAME + r")[`'”\"]?\s*"
                   r"(?:参数)?(?:的数据类型)?\s*(?:保持)?\s*(?:一致|相同)?\s*[。.]?$")
_SPLIT = re.compile(r"\s*(?:[、,，;；/]|\s|和|或)\s*")
_RANGE = re.compile(r"^(\d+)\s*(?:维)?\s*(?:-|~|～|至|到|—|–)\s*(\d+)\s*(?:维|D)?$")
_ONE = re.compile(r"^(\d+)\s*(?:维|D)?$")
_LIST = re.compile(r"^\d+\s*维?(?:\s*(?:、|,|，|或|/)\s*\d+\s*维?)+$")
_DIM = r"[A-Za-z0-9_]+(?:\s*[*+]\s*[A-Za-z0-9_]+)*"  # "C", "4*hidden_size", "numLayers * D"
_SHAPE = re.compile(r"^[\[(（]\s*((?:" + _DIM + r"\s*[,，]\s*)*" + _DIM + r")\s*[,，]?\s*[\])）]$")
_EXAMPLE = re.compile(r"^(.+?)\s*[(（](.+)[)）]$")  # "2或3 ([T, H]或[B, S, H])": ranks, then shapes
_AT_MOST = re.compile(r"^(?:不超过|不大于|不高于|小于等于|最大|最多|至多|≤|<=)\s*(\d+)\s*维?$")
# a rank tied to another parameter's: "与self一致", "维度与self保持一致", "shape与self的shape一致",
# "同target.shape", "要求与“varRef”参数一致。" (a tie of shapes ties their ranks too)
_RANK_SAME = re.compile(r"^(?:维度|维数|shape)?\s*(?:需要|需|要求|必须)?\s*(?:与|和|同)\s*[`'“\"]?("
                        + NAME + r")[`'”\"]?(?:\.shape)?\s*(?:参数)?\s*(?:的\s*(?:维度|维数|shape))?"
                        r"\s*(?:保持|完全)?\s*(?:一致|相同)?\s*[。.]?$")
_SHAPES = re.compile(r"\s*(?:或者|或|、|和)\s*")
_YES, _NO = ("√", "✓", "✔", "是", "支持"), ("×", "✗", "✘", "x", "X", "否", "不支持")


def name_and_type(cell: str) -> tuple[str, str | None, bool] | None:
    """"self（aclTensor*）" → ("self", "aclTensor*", False); "bias（aclTensor*，可选）" marks optional."""
    match = _NAME.match(cell)
    if not match:
        return None
    inside = match.group(2) or ""
    written = re.split(r"[，,]", inside)[0].strip()
    ctype = normalise_ctype(written)[0] if written else None
    return match.group(1), ctype or None, "可选" in inside or "optional" in inside.lower()


def direction(cell: str) -> str | None:
    """"输入" → input; "输出" (an in-place "输入/输出" is written, so output too) → output."""
    if "输出" in cell or "出参" in cell or "output" in cell.lower():
        return "output"
    if "输入" in cell or "入参" in cell or "属性" in cell or "input" in cell.lower():
        return "input"
    return None


def read_and_written(cell: str) -> bool:
    """"输入/输出" (an in-place tensor): an output whose dtype the call reads as an input's."""
    return direction(cell) == "output" and ("输入" in cell or "input" in cell.lower())


def same_as(cell: str) -> str | None:
    """"与self保持一致" / "与self一致" / "同self" / "数据类型和self相同。" → "self"."""
    match = _SAME.match(cell.strip())
    return match.group(1) if match else None


def _tokens(cell: str) -> list[str]:
    """The names a dtype or format cell lists ("-" and empty ones left out)."""
    tokens = (t.strip().strip("`") for t in _SPLIT.split(cell.strip().rstrip("。.")))
    return [t for t in tokens if t and t not in EMPTY]


def dtypes(cell: str, vocab: Vocabulary) -> tuple[tuple[str, ...], list[str]]:
    """The vocabulary dtypes a cell lists, and the tokens it does not know (in order; a footnote
    mark "^1" is one: what it means is said elsewhere)."""
    known: list[str] = []
    unknown: list[str] = []
    for token in _tokens(cell):
        name = vocab.dtype(token)
        if name is None:
            unknown.append(token)
        elif name not in known:
            known.append(name)
    return tuple(known), unknown


def formats(cell: str, vocab: Vocabulary) -> tuple[tuple[str, ...], list[str]]:
    """The vocabulary formats a cell lists, and the tokens it does not know."""
    known: list[str] = []
    unknown: list[str] = []
    for token in _tokens(cell):
        name = token.upper().removeprefix("ACL_FORMAT_")
        if name not in vocab.formats:
            unknown.append(token)
        elif name not in known:
            known.append(name)
    return tuple(known), unknown


def rank(cell: str) -> tuple[int, int] | None:
    """"1-8" → (1, 8); "4" → (4, 4); "0~8 维" → (0, 8); "4维或5维" → (4, 5); a shape written
    out, "[B, N, S]" or "(C,)", → its length, and shapes written as alternatives, "(N,C)或者(C)",
    → their lengths when they run without a gap; "2或3 ([T, H]或[B, S, H])" when both agree;
    else None."""
    text = cell.strip().rstrip("。.")
    text = re.sub(r"^(?:维度|维数|shape)?\s*(?:为|支持)?\s*", "", text)
    found = _rank(text)
    if found is None and (shapes := _alternatives(text)):
        found = shapes
    if found is None and (match := _EXAMPLE.match(text)):
        said = _rank(match.group(1))
        shown = _alternatives(match.group(2)) or _shape(f"({match.group(2)})")
        found = said if said is not None and said == shown else None
    return found


def _alternatives(text: str) -> tuple[int, int] | None:
    """Shapes joined by 或者/或/、/和: the range of their lengths (None with a gap or a non-shape)."""
    parts = [p for p in _SHAPES.split(text) if p]
    sizes = sorted({r[0] for p in parts if (r := _shape(p)) is not None})
    if not parts or any(_shape(p) is None for p in parts):
        return None
    return (sizes[0], sizes[-1]) if sizes == list(range(sizes[0], sizes[-1] + 1)) else None


def _shape(text: str) -> tuple[int, int] | None:
    if match := _SHAPE.match(text.strip()):
        size = len(re.split(r"\s*[,，]\s*", match.group(1)))
        return size, size
    return None


def _rank(text: str) -> tuple[int, int] | None:
    if match := _RANGE.match(text):
        lo, hi = int(match.group(1)), int(match.group(2))
        return (lo, hi) if lo <= hi else None
    if match := _ONE.match(text):
        return int(match.group(1)), int(match.group(1))
    if shape := _shape(text):
        return shape
    if match := _AT_MOST.match(text):
        return 0, int(match.group(1))
    if _LIST.match(text):
        values = sorted(int(v) for v in re.findall(r"\d+", text))
        if values == list(range(values[0], values[-1] + 1)):
            return values[0], values[-1]
    return None


def rank_same_as(cell: str) -> str | None:
    """"与self一致" / "维度与self保持一致" / "同target.shape" → the parameter whose rank it shares."""
    match = _RANK_SAME.match(cell.strip())
    return match.group(1) if match else None


def flag(cell: str) -> bool | None:
    """√/✓ → True, ×/✗ → False; anything else (including "-") → None."""
    text = cell.strip()
    if text in _YES:
        return True
    if text in _NO:
        return False
    return None


def is_empty(cell: str) -> bool:
    return cell.strip() in EMPTY

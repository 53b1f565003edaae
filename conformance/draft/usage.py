"""What one usage-note sentence of the parameter table says, read mechanically: a relation to other
tensors (dtype or shape the same as, broadcasts with, is the broadcast of), an attribute's
enumerated values, whether empty tensors are supported. None of these gives a status code: the
error table does (clauses.py joins the two)."""
from __future__ import annotations

import re
from collections.abc import Collection

from conformance.draft.condition_phrasings import is_conditional
from conformance.draft.sentence_limits import named
from conformance.draft.words import NAME, NTH_DIM, QUOTE, WORD

_SAME = r"(?:一致|相同|一样|保持一致|完全一致)"
_DTYPE_SAME = re.compile(rf"(?:数据类型|dtype).{{0,30}}{_SAME}|{_SAME}.{{0,4}}的?数据类型")
_SHAPE_SAME = re.compile(rf"(?:shape|形状).{{0,30}}{_SAME}|{_SAME}.{{0,4}}的?(?:shape|形状)")
_BROADCAST_WITH = re.compile(r"broadcast\s*关系|满足\s*broadcast|可以?\s*broadcast|能够?\s*broadcast")
# ("shape需要是self与other满足broadcast关系之后的shape": the same)
_BROADCAST_OF = re.compile(r"broadcast\s*(?:关系\s*)?(?:之后|后|以后)的?\s*(?:tensor的)?\s*(?:shape|形状)|"
                           r"broadcast\s*结果")
_NOT_RELATION = re.compile(r"推导|转换|不一致|不同|不要求|无需|无关|第.维|维度大小|某一维|轴|size|长度|"
                           r"元素个数")
_CLAUSES = re.compile(r"[，,；;]")
_WENT_ON = re.compile(r"^\s*(?:且|并且|而且)?\s*broadcast\s*(?:之后|后|以后)的\s*shape")
_NOT_PLAIN = re.compile(r"@|乘|在[^，。]{1,30}时|如果|若")
_RANK_WORDS = re.compile(r"shape\s*的?维度|维度数|维数")  # "shape维度与self一致": the rank, not the shape
# "shape与self的batch一致", "与logits前n-1维一致", "可以和gamma或x1一致": a part of the shape, or one of
# two; "perTensor模式下shape与x1一致", "其他数据类型时shape和x保持一致": only in some cases
_SHAPE_PART = re.compile(r"维|batch|其余|其他|中的|可以|或|建议|大小|计算")
_COUNT = re.compile(r"元素个数|元素数|size", re.IGNORECASE)
_SHAPE_SCOPED = re.compile(r"(?:模式|情况|场景)下|时")
_EMPTY_NO = re.compile(r"不支持\s*空\s*(?:tensor|Tensor|张量)|不能为?\s*空\s*(?:tensor|Tensor)")
_EMPTY_YES = re.compile(r"支持\s*空\s*(?:tensor|Tensor|张量)")
_ENUM_NAMED = re.compile(rf"(-?\d+)\s*[（(]\s*{QUOTE}?\s*({WORD})\s*{QUOTE}?\s*[)）]")
_ENUM_PLAIN = re.compile(r"(?:取值为|取值范围为|取值只能为|仅支持|只支持|支持取值|可选值为|取值支持)"
                         r"\s*[:：]?\s*[\[{]?((?:-?\d+\s*(?:、|,|，|/|\||或者|或|和)\s*)+-?\d+)[\]}]?")


def relations(text: str, owner: str, tensors: Collection[str],
              inputs: Collection[str] | None = None) -> list[tuple[str, tuple[str, ...]]]:
    """(kind, params) for each relation ``text`` (a usage note of ``owner``) states with the
    tensors it names, clause by clause ("，"): same_dtype, same_shape, broadcastable, or
    broadcast_of (owner is the broadcast of the others)."""
    text = text.replace("广播", "broadcast")  # "与self、other广播之后的shape一致": the same words
    if is_conditional(text) or _NOT_PLAIN.search(text) or owner not in tensors:
        return []  # "当reduction为0时，shape需要与…", "在alpha不为0时…", "与mat@vec…": not plainly
    out: list[tuple[str, tuple[str, ...]]] = []
    parts = _CLAUSES.split(_joined(text, tensors))
    for i, part in enumerate(parts):
        # (a sentence opening "broadcast后的shape…" goes on from the one before it: the owner's broadcast)
        after = i == 0 or _BROADCAST_WITH.search("".join(parts[:i]))
        went_on = _went_on(part, owner, tensors, out) if after else None
        out += _relations(part, owner, tensors, inputs) if went_on is None else went_on
    if _SHAPE_SCOPED.search(text):
        out = [(kind, group) for kind, group in out if kind != "same_shape"]
    return list(dict.fromkeys(out))


def _went_on(part: str, owner: str, tensors: Collection[str],
             said: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]] | None:
    """"shape需要与other满足broadcast关系，且broadcast后的shape需要与selfRef的shape一致" (or "…与原shape
    保持一致": the owner's), after a part saying the owner broadcasts: the broadcast of the owner
    and the tensors that part named (none where it names none of the operator's: "与self" on an
    in-place page, or a sentence of its own going on from the one before) is the named tensor's
    shape. None where the part is no such continuation."""
    before = [group for kind, group in said if kind == "broadcastable" and group[0] == owner]
    if not _WENT_ON.match(part):
        return None
    held = named(part, tensors) or ((owner,) if "原shape" in part else ())
    if len(held) != 1:
        return None
    operands = tuple(n for n in dict.fromkeys((owner, *(before[-1][1:] if before else ()))) if n != held[0])
    return [("broadcast_of", (held[0], *operands))] if operands else []


def _joined(text: str, tensors: Collection[str]) -> str:
    """"shape为gradOutput，self，target的broadcast结果": names listed with "，" are one list, not
    clauses (each part would relate one name alone)."""
    names = "|".join(sorted(map(re.escape, tensors), key=len, reverse=True))
    if not names:
        return text
    return re.sub(rf"(?<![A-Za-z0-9_])({names})\s*[，,]\s*(?=(?:{names})(?![A-Za-z0-9_]))", r"\1、", text)


def _relations(text: str, owner: str, tensors: Collection[str],
               inputs: Collection[str] | None) -> list[tuple[str, tuple[str, ...]]]:
    others = tuple(n for n in named(text, tensors) if n != owner)
    if not others and "输入" in text and inputs is not None and len(inputs) == 1 and owner not in inputs:
        others = tuple(inputs)  # an output "与输入一致" where there is one input tensor
    if not others:
        return []
    group = (owner, *others)
    if _BROADCAST_OF.search(text):  # ("元素个数为mask和self广播后的shapesize": a count, no shape)
        return [] if _COUNT.search(text) else [("broadcast_of", group)]
    out: list[tuple[str, tuple[str, ...]]] = []
    if _BROADCAST_WITH.search(text) and not re.search(NTH_DIM, text):  # ("第一个维度…满足broadcast")
        out.append(("broadcastable", group))
    if _NOT_RELATION.search(text):
        return out
    if _DTYPE_SAME.search(text):
        out.append(("same_dtype", group))
    if _SHAPE_SAME.search(text) and "broadcast" not in text and not _RANK_WORDS.search(text) \
            and not _SHAPE_PART.search(text):
        out.append(("same_shape", group))
    return out


def empty_support(text: str) -> bool | None:
    """True for "支持空Tensor", False for "不支持空Tensor", None when the sentence says neither."""
    if _EMPTY_NO.search(text):
        return False
    return True if _EMPTY_YES.search(text) else None


# "0：none，表示…" (a value and its name), "0：表示…" (a value and what it means)
_ENUM_LINE = re.compile(rf"^\s*(-?\d+)\s*[：:]\s*(?:{QUOTE}?({NAME})|表示)")


def enumeration_lines(texts: list[str]) -> tuple[dict[int, str], list[int]] | None:
    """Values listed one per sentence: "0：none，表示…", "1：mean，…" → ({0: none, 1: mean}, the
    indices of those sentences; "0：表示…" → {0: "0"}); None for fewer than two."""
    found = [(i, m.groups()) for i, t in enumerate(texts) if (m := _ENUM_LINE.match(t))]
    if len(found) < 2:
        return None
    return {int(k): v or k for _, (k, v) in found}, [i for i, _ in found]


# "输入范围为{35, 36}", "dstType的取值范围是:[2, 34, 35]", "取值范围：{1, 0}", "当前取值仅支持32",
# "当前仅支持输入2和29", "仅支持以下取值：0（…），1（…）", "当前仅支持0表示A模式，1表示B模式"
_SET_LEAD = (r"(?:输入范围为|取值范围(?:为|是)|取值范围\s*[:：]|取值(?:仅|只)支持为?|"
             r"(?:仅|只)支持(?:输入|传入|取值为?)?)")
_ENUM_SET = re.compile(_SET_LEAD + r"\s*[:：]?\s*([{\[])\s*(-?\d+(?:\s*[,，、]\s*-?\d+)*)\s*[}\]]")
_ENUM_ONE = re.compile(_SET_LEAD + r"\s*(-?\d+)\s*(?:[（(][^）)]*[）)])?\s*。?$")
_ENUM_AND = re.compile(_SET_LEAD + r"\s*(-?\d+(?:\s*(?:和|或|、|,|，)\s*-?\d+)+)\s*(?:[，,。].*)?$")
_ENUM_FOLLOWING = re.compile(r"(?:仅|只)支持以下取值\s*[:：]\s*(.+)$")
_ENUM_MEANING = re.compile(r"(?:^|[，,、：:]|支持)\s*(-?\d+)\s*表示")
_NOT_A_SET = re.compile(r"产品|倍数|整除|[A-Za-z_]\s*[-+*/]|len\(|维")


def enumeration(text: str) -> dict[int, str] | None:
    """An attribute's documented values: "支持0('none')|1('mean')|2('sum')" → {0: none, 1: mean,
    2: sum}; "取值为0、1、2" → {0: "0", 1: "1", 2: "2"}; the sets of _ENUM_SET and its kin (a
    bracketed pair is a range, "[1, 4]" → 1..4); None when the sentence lists none, or says
    more than a set (a condition, a product line, a multiple, a bound over another value)."""
    pairs = _ENUM_NAMED.findall(text)
    if len(pairs) >= 2:
        return {int(k): v for k, v in pairs}
    if m := _ENUM_PLAIN.search(text):
        numbers = [int(n) for n in re.findall(r"-?\d+", m[1])]
        if "[" in m[0] and len(numbers) == 2:  # "取值范围为[0, 3]": a range, 0..3
            return _range(*numbers)
        return {n: str(n) for n in numbers}
    if is_conditional(text) or _NOT_A_SET.search(text):
        return None
    return _set(text)


def _range(low: int, high: int) -> dict[int, str] | None:
    return {n: str(n) for n in range(low, high + 1)} if 0 <= high - low <= 64 else None


# "在MX量化模式，仅支持32", "2：支持索引越界，当前只支持1": said of one mode (one value) only
_SCOPED = re.compile(r"模式|场景|时|下|若|如果|当(?!前)|在|^\s*-?\d+\s*[：:]")


def _set(text: str) -> dict[int, str] | None:
    lead = re.search(_SET_LEAD + "|(?:仅|只)支持", text)
    if lead is None or _SCOPED.search(text[:lead.start()]):
        return None
    numbers: list[int] = []
    if m := _ENUM_SET.search(text):
        numbers = [int(n) for n in re.findall(r"-?\d+", m[2])]
        if m[1] == "[" and len(numbers) == 2:  # [low, high]: a range
            return _range(*numbers)
    elif m := _ENUM_ONE.search(text) or _ENUM_AND.search(text):
        numbers = [int(n) for n in re.findall(r"-?\d+", m[1])]
    elif m := _ENUM_FOLLOWING.search(text):
        numbers = [int(n) for n in re.findall(r"(?:^|[，,、])\s*(-?\d+)\s*[（(]", m[1])]
    elif re.search(r"(?:仅|只)支持", text) and len(found := _ENUM_MEANING.findall(text)) >= 2:
        numbers = [int(n) for n in found]
    return {n: str(n) for n in dict.fromkeys(numbers)} or None


# "须" (必须, 须采用) and "应" as a modal (应与x一致, 应当, 不应; not 对应, 相应): a promise too
_CONSTRAINT_WORDS = re.compile(r"需要|需|须|(?<![对相响适])应(?!用)|要求|不支持|仅支持|只支持|取值|范围|"
                               r"一致|相同|满足|不能|不可|不得|小于|大于|等于|只能|维|shape|长度|不超过|至少|至多|约束|限制|不允许")


def looks_like_constraint(text: str) -> bool:
    """A sentence a person should read when nothing encoded it (a promise or a limit)."""
    return bool(_CONSTRAINT_WORDS.search(text)) and not re.fullmatch(r"[-–—\s]*", text)

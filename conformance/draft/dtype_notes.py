"""Product-specific dtype notes: "<term>Atlas 训练系列产品</term>：数据类型不支持BFLOAT16。",
"…：数据类型支持FLOAT、FLOAT16。", "…：参数self、out的数据类型不支持BFLOAT16。", "…：selfRef数据类型额外
支持COMPLEX64。", "…：FLOAT、FLOAT16。" — below the parameter table, as nested bullets under a bare
product label ("- <term>…</term>：" then "  - …"), or inside a parameter's usage cell.

Which parameters a note reaches (the rule, for a note that names none):
- a note that names parameters reaches exactly those;
- a note that names none reaches tensors only (aclTensor*, aclTensorList*: an attribute's dtype
  cell names its C type's dtype, which no product note is about), and of them:
- "不支持 X" every tensor whose dtype cell lists one of X, removing X;
- "支持 / 仅支持 X" every tensor whose dtype cell shares a dtype with X, giving it the dtypes of X
  its cell lists (a note names what the line supports out of the table's union; a dtype of X in no
  reached cell is not attributed, and the note goes to review);
- "额外支持 X" every tensor with a dtype cell, adding X.
A parameter already given dtypes for a product by an earlier note starts from those. A note whose
sentence says more than the note, or lists a dtype the vocabulary does not know where it matters
(supported, not excluded), is also sent to review; a conditional one ("当…时，不支持X") is not
applied at all, only sent to review.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.draft.facts import ParamRow
from conformance.draft.sentence_limits import IDENT
from conformance.spec.vocabulary import Vocabulary

_DT = r"[A-Za-z][A-Za-z0-9_]*"
_NOTE = re.compile(rf"(?P<op>不支持|额外支持|仅支持|只支持|支持)\s*"
                   rf"(?:的?数据类型(?:为|有|包括)?)?\s*[:：]?\s*(?P<list>{_DT}(?:\s*(?:[、,，/]|和|及|以及)\s*{_DT})*)")
_CONDITION = re.compile(r"当|若|如果|时[，,]|场景")
_FILLER = re.compile(r"[\s、，,。.：:;；`和与及的]|参数|数据类型|类型|输入|输出|入参|出参|均|都")


@dataclass(frozen=True)
class Note:
    op: str  # "remove" | "only" | "add"
    dtypes: tuple[str, ...]  # the vocabulary dtypes it lists
    unknown: tuple[str, ...]  # the tokens the vocabulary does not know
    names: tuple[str, ...]  # the parameters it names
    complete: bool  # the sentence says nothing beyond the note


def parse_note(body: str, names: list[str], vocab: Vocabulary) -> Note | None:
    """The dtype note in the text after the product label, or None when it is not one."""
    for match in _NOTE.finditer(body):
        window = body[max(0, match.start() - 8):match.end() + 6]
        tokens = re.split(r"\s*(?:[、,，/]|以及|和|及)\s*", match.group("list"))
        known = tuple(d for t in tokens if (d := vocab.dtype(t)))
        unknown = tuple(t for t in tokens if not vocab.dtype(t))
        looks_dtype = all(re.fullmatch(r"[A-Z][A-Z0-9_]*", t) for t in tokens)
        if not ("类型" in window and (known or looks_dtype) or known and looks_dtype):
            continue
        if _CONDITION.search(body[:match.start()]):
            return None  # "当…时，不支持X": a condition the note cannot carry
        words = IDENT.findall(body[:match.start()])
        named = tuple(n for n in names if n in words)
        rest = " ".join(w for w in IDENT.split(body[:match.start()] + body[match.end():]))
        rest += " ".join(w for w in IDENT.findall(body[:match.start()] + body[match.end():])
                         if w not in named)
        op = {"不支持": "remove", "额外支持": "add"}.get(match.group("op"), "only")
        return Note(op, known, unknown, named, not _FILLER.sub("", rest))
    return _bare_list(body, vocab)


def _bare_list(body: str, vocab: Vocabulary) -> Note | None:
    """"…：FLOAT、FLOAT16、DOUBLE。" — a product label over nothing but known dtypes lists them."""
    tokens = [t for t in re.split(r"[\s、,，/。.]+", body) if t]
    dtypes = tuple(d for t in tokens if (d := vocab.dtype(t)))
    return Note("only", dtypes, (), (), True) if tokens and len(dtypes) == len(tokens) else None


def apply_note(note: Note, products: list[str], rows: list[ParamRow],
               tensors: set[str] | None = None) -> bool:
    """Record the note on the rows it reaches (``tensors``: the names of the tensor parameters,
    None: every row is one); False when it reaches none or leaves something unattributed (the
    caller sends the sentence to review)."""
    reached = [r for r in rows if _reaches(note, r)
               and (note.names or tensors is None or r.name in tensors)]
    complete = note.complete and bool(reached) and bool(products)
    if note.op != "remove" and note.unknown:
        complete = False
    if note.op == "only" and not note.names:
        listed = {d for r in reached for d in r.dtypes}
        complete = complete and all(d in listed for d in note.dtypes)
    for row in reached:
        for product in products:
            base = row.product_dtypes.get(product, row.dtypes)
            row.product_dtypes[product] = _result(note, row, base)
    return complete


def _reaches(note: Note, row: ParamRow) -> bool:
    if note.names:
        return row.name in note.names
    if note.op == "add":
        return bool(row.dtypes)
    return any(d in row.dtypes for d in note.dtypes)


def _result(note: Note, row: ParamRow, base: tuple[str, ...]) -> tuple[str, ...]:
    if note.op == "remove":
        return tuple(d for d in base if d not in note.dtypes)
    if note.op == "add":
        return base + tuple(d for d in note.dtypes if d not in base)
    if note.names:
        return note.dtypes
    return tuple(d for d in note.dtypes if d in row.dtypes)

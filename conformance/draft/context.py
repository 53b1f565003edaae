"""What drafting knows about one page while it builds clauses: the spec's parameters and products,
the page's parameter rows, the sentences used so far, clause ids and quoting.

A clause dict may carry private keys (``_evidence``: the error-row readings it encodes, ``_break``:
a break the generate section resolves to draw names); emit.py drops every key starting with ``_``.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from conformance.draft.facts import PageError, PageFacts, ParamRow, ProductFact, Sentence, Where
from conformance.draft.list_kinds import quoted_values
from conformance.draft.string_values import string_values
from conformance.spec.expression_names import nameable
from conformance.spec.vocabulary import Vocabulary

Clause = dict[str, Any]

#: The spec kind of each C type the suite can pass (others cannot be expressed: see ``omitted``).
KINDS = {"aclTensor*": "tensor", "aclTensorList*": "tensor_list", "aclScalar*": "scalar",
         "char*": "string", "aclIntArray*": "int_array",
         "aclBoolArray*": "bool_array", "int64_t": "int", "int32_t": "int",
         "int16_t": "int", "int8_t": "int", "uint64_t": "int", "uint32_t": "int", "int": "int",
         "bool": "bool", "double": "float", "float": "float"}
#: Kinds passed as tensors (their table rows give dtypes, formats, ranks: for a list, of every element).
TENSOR_KINDS = ("tensor", "tensor_list")
#: A clause id's middle part per kind (behavior clauses are named by what they check).
ID_PARTS = {"not_null": "NULL", "dtype_in": "DTYPE", "same_dtype": "SAME-DTYPE", "format_in": "FORMAT",
            "same_format": "SAME-FORMAT",
            "rank_in": "RANK", "same_shape": "SAME-SHAPE", "broadcastable": "BCAST", "value_in": "VALUE",
            "contiguous": "CONTIGUOUS", "expr": "EXPR", "review": "REVIEW"}


@dataclass(frozen=True, eq=False)  # each reading is itself (its limits dict is no key)
class Evidence:
    """One error-row sentence read by a pattern: the clause kind, the parameters, the row's code."""

    kind: str
    pattern: str
    params: tuple[str, ...]
    status: str
    sentence: Sentence
    limits: dict[str, Any]
    row: int  # the index of its error row in PageFacts.errors


@dataclass
class Context:
    facts: PageFacts
    vocab: Vocabulary
    params: dict[str, dict[str, Any]]  # the spec's params (kind, role, optional, values)
    products: list[str]
    new_products: dict[str, str]  # product id → label, for lines the vocabulary lacks
    omitted: dict[str, str]  # parameters the spec language cannot express: name → C type
    new_statuses: dict[str, int] = field(default_factory=dict)  # status names the vocabulary lacks
    used: set[Sentence] = field(default_factory=set)  # usage sentences some clause encodes
    ids: dict[str, int] = field(default_factory=dict)

    @property
    def rows(self) -> dict[str, ParamRow]:
        return {r.name: r for r in self.facts.params}

    def unsupported(self) -> dict[str, ProductFact]:
        """The lines the page marks unsupported (and supports in no other bullet), by id: the
        first mark of each."""
        out: dict[str, ProductFact] = {}
        for p in self.facts.products:
            pid = p.product or product_id(p.label, self.vocab)
            if not p.supported and pid not in self.products:
                out.setdefault(pid, p)
        return out

    def of_kind(self, *kinds: str) -> list[str]:
        return [n for n, p in self.params.items() if p["kind"] in kinds]

    @property
    def tensors(self) -> list[str]:
        """Tensors and tensor lists, in the prototype's order."""
        return self.of_kind(*TENSOR_KINDS)

    def required_pointers(self) -> list[str]:
        pointers = (*TENSOR_KINDS, "scalar", "int_array", "bool_array")
        return [n for n, p in self.params.items() if p["kind"] in pointers and not p.get("optional")]

    def if_given(self, name: str, text: str) -> str:
        """The expression ``text`` on ``name`` as it holds: an optional argument left out has
        nothing to hold."""
        return f"not present({name}) or {text}" if self.params[name].get("optional") else text

    def new_id(self, part: str) -> str:
        self.ids[part] = self.ids.get(part, 0) + 1
        n = self.ids[part]
        return f"{prefix(self.facts.api)}-{part}" + (f"-{n}" if n > 1 else "")


def reading(clause: Clause) -> str:
    """What a clause was read as, for the review clause it becomes when left out: the pattern of
    the first error-row sentence it encodes, else its kind."""
    evidence = clause.get("_evidence") or [None]
    return evidence[0].pattern if evidence[0] is not None else clause["kind"]


def expressible(*names: str) -> bool:
    """Whether clause expressions can name these parameters (all but the words of the expression
    syntax, spec/expression_names.py: ``from``, ``lambda``, ``min`` are named as they are)."""
    return all(nameable(n) for n in names)


def prefix(api: str) -> str:
    """The clause-id prefix of an api: its capitals and digits (aclnnMseLossBackward → MLB)."""
    name = api[len("aclnn"):] if api.startswith("aclnn") else api
    letters = "".join(c for c in name if c.isupper() or c.isdigit()) or name[:1].upper()
    return letters if letters[0].isalpha() else "OP" + letters


def source(sentences: Iterable[Sentence]) -> dict[str, str]:
    """A clause's source: the sentences' text (joined by " / ") and where they are."""
    unique = list(dict.fromkeys(sentences))
    return {"doc": "upstream", "quote": " / ".join(dict.fromkeys(s.text for s in unique)),
            "where": places(s.where for s in unique)}


def places(wheres: Iterable[Where]) -> str:
    """Where.describe() of each place, rows of one table said once: "<section>, parameters table,
    rows 1, 2 (lines 93, 103)"."""
    groups: dict[tuple[str, str | None], list[Where]] = {}
    for w in dict.fromkeys(wheres):
        groups.setdefault((w.section, w.table), []).append(w)
    out = []
    for (section, table), ws in groups.items():
        if len(ws) == 1:
            out.append(ws[0].describe())
            continue
        rows = ", ".join(dict.fromkeys(str(w.row) for w in ws if w.row))
        lines = ", ".join(dict.fromkeys(str(w.line) for w in ws))
        at = f", {table} table" + (f", rows {rows}" if rows else "") if table else ""
        out.append(f"{section}{at} (lines {lines})")
    return "; ".join(out)


def slug(label: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    return text or f"product-{zlib.crc32(label.encode()):08x}"  # a label of no ASCII at all


def build_context(facts: PageFacts, vocab: Vocabulary) -> Context:
    """The spec parameters (by the prototype's order and C types, the table's directions) and
    products of a page; a PageError when nothing the suite can run is left."""
    rows = {r.name: r for r in facts.params}
    params: dict[str, dict[str, Any]] = {}
    omitted: dict[str, str] = {}
    for p in facts.prototype:
        kind = KINDS.get(p.ctype)
        row = rows.get(p.name)
        if kind is None or kind == "string" and not (p.optional or row is not None and row.optional
                                                     or quoted_values(row) or string_values(row)):
            omitted[p.name] = p.ctype  # (a required string whose values the page never quotes)
            continue
        direction = row.direction if row is not None else None
        output = kind in TENSOR_KINDS and _written(p.name, direction, p.const)
        role = ("output" if output else "input") if kind in TENSOR_KINDS else \
            "input" if kind == "scalar" else "attr"
        params[p.name] = {"kind": kind, "role": role}
        if kind in TENSOR_KINDS and (p.name.endswith("Ref") or row is not None and row.reads
                                     or direction == "input" and not p.const and not _RESULT.match(p.name)
                                     and not p.name.endswith("Out")):
            params[p.name][IN_PLACE] = True
        if p.optional or (row is not None and row.optional):
            params[p.name]["optional"] = True
    _in_place(facts.api, params)
    if not any(p["kind"] in TENSOR_KINDS for p in params.values()):
        raise PageError(facts.page, "function prototype",
                        "no aclTensor* or aclTensorList* parameter the suite can pass")
    products, new = _products(facts, vocab)
    return Context(facts, vocab, params, products, new, omitted)


#: A private key of a drafted parameter: a tensor the call reads and may write in place (an xRef, a
#: row saying 输入/输出, an in-place call's first tensor, a non-const pointer whose row says 输入: a
#: running mean). Drafting
#: treats it by its role; the spec gets role ``inout`` (filled with data, never checked unchanged).
IN_PLACE = "_in_place"


def read_by_call(p: dict[str, Any]) -> bool:
    """Whether the call reads the tensor: an input, or an in-place one (its shape is given)."""
    return p["role"] != "output" or bool(p.get(IN_PLACE))

# Names the vendor gives only to tensors a call writes, whatever a page's direction cell says (some
# rows say 输入 for out or selfRef): checked as inputs, a correct kernel would fail inputs-unchanged
_RESULT = re.compile(r"^(?:out|gradInput)$")  # what a call computes, never something it reads


def _written(name: str, direction: str | None, const: bool) -> bool:
    """Whether a call writes a tensor: its row says 输出, its name says so, or, without a direction,
    the prototype (a non-const pointer; a name ending in Out)."""
    if direction == "output" or _RESULT.match(name) or name.endswith("Ref"):
        return True
    if not const and name.endswith("Out"):  # (aclnnAminmax's minOut, its row saying 输入; a const
        return True  # gradOut is what a backward reads)
    return direction is None and (not const or name.endswith("Out"))


def _in_place(api: str, params: dict[str, dict[str, Any]]) -> None:
    """An aclnnInplace* call writes its first tensor: where the page marks no tensor written (its
    self is a plain 输入 row), that one is."""
    tensors = [p for p in params.values() if p["kind"] in TENSOR_KINDS]
    if api.startswith("aclnnInplace") and tensors and not any(p["role"] == "output" for p in tensors):
        tensors[0].update({"role": "output", IN_PLACE: True})


def product_id(label: str, vocab: Vocabulary) -> str:
    """The id of a product line the reader did not map: a known id its label (or a part of it
    between "/") slugs to, as "Atlas A3 系列产品" → atlas-a3, else the slug of the label."""
    for part in (label, *label.split("/")):
        known = vocab.product(slug(part))
        if known is not None:
            return known
    return slug(label)


def _products(facts: PageFacts, vocab: Vocabulary) -> tuple[list[str], dict[str, str]]:
    products: list[str] = []
    new: dict[str, str] = {}
    for fact in facts.products:
        pid = fact.product or product_id(fact.label, vocab)
        if pid not in vocab.products:
            new.setdefault(pid, fact.label)
        if fact.supported and pid not in products:
            products.append(pid)
    if not products:
        raise PageError(facts.page, "product support", "no product line is marked supported")
    return products, new

"""Read one aclnn documentation page into ``PageFacts`` (the entry point of the readers).

A page with several operators (``aclnnCelu&aclnnInplaceCelu``) is read once for each one its
title names (``page_apis``): each has its own prototype and GetWorkspaceSize section, and shares
the page's products and constraints. A page that cannot be read at all — no operator declared,
an argument list never closed, no parameter description — raises ``PageError`` naming the part;
a page declaring only one-phase helpers (no GetWorkspaceSize, no executor, such as
aclnnCalculateMatmulWeightSize) raises ``NotOperatorPage``. Everything else a reader saw and
could not place goes to ``unread``, quoted, with its place.
"""
from __future__ import annotations

import re
from dataclasses import replace

from conformance.draft.constraints import read_constraints
from conformance.draft.dtype_notes import apply_note, parse_note
from conformance.draft.error_table import is_error_table, read_errors
from conformance.draft.facts import (
    NotOperatorPage,
    PageError,
    PageFacts,
    ParamRow,
    PrototypeParam,
    Sentence,
    Where,
)
from conformance.draft.page import Item, Page, Section, sentences, terms
from conformance.draft.param_table import ParamDescription, is_param_table, read_params
from conformance.draft.products import product_ids, read_products
from conformance.draft.prototype import declared_apis, one_phase_functions, read_prototype
from conformance.draft.workspace import workspace_section
from conformance.spec.vocabulary import Vocabulary

_FUNCTION_LABELS = ("接口功能", "算子功能", "功能")
EXAMPLE_TITLES = ("调用示例", "调用样例", "样例", "示例")
_BOILERPLATE = ("状态码", "入参校验", "以下场景时报错", "以下错误码", "返回值", "参数说明")


def page_apis(text: str, page: str) -> list[str]:
    """The operators the page documents, in the order its title names them ("aclnnCelu&
    aclnnInplaceCelu" → both); raises ``PageError`` (``NotOperatorPage``) when it declares none."""
    return _apis(Page(text), page)


def read_page(text: str, page: str, vocab: Vocabulary, api: str | None = None) -> PageFacts:
    """The facts of one operator of a page (``page`` is the path to quote; ``api`` one of
    ``page_apis``, the first when None); raises ``PageError``."""
    doc = Page(text)
    apis = _apis(doc, page)
    api = api or apis[0]
    prototype = read_prototype(_declarations_text(doc), api)
    if prototype is None:
        raise PageError(page, "function prototype",
                        f"the argument list of {api}GetWorkspaceSize is not closed")
    products, unread = read_products(doc, vocab)
    section = workspace_section(doc, api)
    if section is not None and api != apis[0] and api.lower() not in section.title.replace(
            " ", "").lower():
        section = None  # a later operator of the page is described under its own heading only
    if section is None:
        raise PageError(page, "parameter table",
                        f"no {api}GetWorkspaceSize section and no 参数说明 section")
    params = read_params(doc, section, vocab, unread, {p.name: p.ctype for p in prototype.params})
    if params is None:
        raise PageError(page, "parameter table", f"the {section.title} section describes no parameters")
    errors = read_errors(doc, section, vocab, unread)
    tensors = {p.name for p in prototype.params if p.ctype.startswith("aclTensor")} | {
        r.name for r in params.rows if (r.ctype or "").startswith("aclTensor")}
    _product_notes(doc, params, vocab, unread, {e.text.where.line for e in errors}, tensors)
    _other_tables(doc, params, unread)
    constraints = read_constraints(doc)
    names = {p.name for p in prototype.params}
    optional = {p.name for p in prototype.params if p.optional} | {r.name for r in params.rows
                                                                     if r.optional and r.name in names}
    return PageFacts(
        api=api, page=page, products=tuple(products),
        prototype=tuple(replace(p, optional=p.name in optional) for p in prototype.params),
        params=tuple(replace(r, optional=r.name in optional or r.optional) for r in params.rows),
        errors=tuple(errors), deterministic=constraints.deterministic,
        nondeterministic=constraints.nondeterministic, constraints=constraints.sentences,
        unread=tuple(unread), function=_function(doc), phase1=_phase1(doc, section))


def _function(doc: Page) -> Sentence | None:
    """The 功能说明 section's "接口功能：…" (older pages: 算子功能) sentence, as written."""
    section = doc.find("功能说明", "功能描述")
    if section is None:
        return None
    for item in doc.items(section.start + 1, section.end):
        if item.text.startswith(_FUNCTION_LABELS):
            return Sentence(item.text, Where(section.path, item.line))
    return None


def _phase1(doc: Page, section: Section) -> Sentence | None:
    """The sentence introducing the error list: "第一段接口完成入参校验，出现以下场景时报错："."""
    path = f"{section.path} > 返回值"
    for item in doc.items(section.start + 1, section.end):
        if "入参校验" in item.text:
            return Sentence(item.text, Where(path, item.line))
    for block in doc.code_in(section.start, section.end):
        for offset, text in enumerate(block.text.split("\n")):
            if "入参校验" in text:
                return Sentence(" ".join(text.split()), Where(path, block.start + 1 + offset))
    return None


def _apis(doc: Page, page: str) -> list[str]:
    declared = declared_apis(_declarations_text(doc))
    if not declared and (helpers := one_phase_functions(_declarations_text(doc))):
        raise NotOperatorPage(page, helpers)
    if not declared:
        part = "title" if not doc.title else "function prototype"
        raise PageError(page, part, "no aclnnStatus aclnnXGetWorkspaceSize(...) declaration")
    named = re.findall(r"aclnn[A-Za-z0-9_]+", doc.title.replace(" ", ""))
    return [api for api in dict.fromkeys(named) if api in declared] or declared[:1]


def _declarations_text(doc: Page) -> str:
    """The page with its calling example blanked (lines kept, so line numbers hold)."""
    lines = list(doc.lines)
    for section in doc.sections:
        if section.level == 2 and any(t in section.title for t in EXAMPLE_TITLES):
            for n in range(section.start, section.end + 1):
                lines[n - 1] = ""
    return "\n".join(lines)


def _product_notes(doc: Page, params: ParamDescription, vocab: Vocabulary, unread: list[Sentence],
                   error_lines: set[int], tensors: set[str]) -> None:
    """Product-specific dtype notes below the table, nested under a parameter's bullet, or in a
    usage cell; a sentence after the table that is no such note (nor an error row) goes to
    ``unread``."""
    rows = list(params.rows)
    names = [r.name for r in rows]
    for name, item in params.nested:
        _note(item.text, terms(item.raw), [], [r for r in rows if r.name == name], vocab, unread,
              Where(params.path, item.line), quiet=True)
    for row in rows:
        for sentence in row.usage:
            _note(sentence.text, [], [], [row], vocab, unread, sentence.where, quiet=True)
    context: tuple[int, list[str]] | None = None  # a bare product label's indent and products
    for item in doc.items(params.end + 1, params.section.end):
        if _boilerplate(item) or item.line in error_lines:
            continue
        if context and item.indent <= context[0]:
            context = None
        where = Where(params.path, item.line)
        inherited = context[1] if context else []
        products = _note(item.text, terms(item.raw), inherited, rows, vocab, unread, where,
                         names=names, tensors=tensors)
        if products and item.text.rstrip().endswith(("：", ":")):
            context = (item.indent, products)


def _note(text: str, labels: list[str], inherited: list[str], rows: list[ParamRow],
          vocab: Vocabulary, unread: list[Sentence], where: Where, *, quiet: bool = False,
          names: list[str] | None = None, tensors: set[str] | None = None) -> list[str]:
    """Apply one note; returns the products its label names. ``quiet``: a sentence that is no
    note is already kept elsewhere (a usage sentence), so it does not go to ``unread``."""
    label, _, body = text.partition("：") if "：" in text else text.partition(":")
    products = [pid for lab in labels for pid in product_ids(lab, vocab)]
    if not labels and body and (ids := product_ids(label, vocab)):
        products = ids
    prefix = f"{label.strip()}：" if products else ""  # a part of several keeps the label
    if not products:
        products, body = inherited, text
    # one note per clause: "x元素值仅支持为1；y数据类型不支持INT64。" is about y's dtypes only
    parts = [p.strip() for s in sentences(body) for p in re.split(r"(?<=[；;])", s) if p.strip()]
    for part in parts if products else []:
        note = parse_note(part, names if names is not None else [r.name for r in rows], vocab)
        if note is not None and names is None:  # a usage cell's or nested bullet's note: its param
            note = replace(note, names=tuple(r.name for r in rows))
        if (note is None or not apply_note(note, products, rows, tensors)) and not quiet:
            unread.append(Sentence(text if part == body.strip() else prefix + part, where))
    if not products and body.strip() and not quiet and not _is_label(text):
        unread.append(Sentence(text, where))
    return products


def _is_label(text: str) -> bool:
    """"数据类型：" introducing the bullets under it (they are read themselves)."""
    return text.rstrip().endswith(("：", ":")) and len(text) <= 24


def _other_tables(doc: Page, params: ParamDescription, unread: list[Sentence]) -> None:
    """A table of the first-phase section that is neither the parameters nor the errors (a dtype
    combination table, say): each row to review, as "header: cell" pairs."""
    section = params.section
    for table in doc.tables_in(section.start, section.end):
        if is_param_table(table) or is_error_table(table):
            continue
        for row in table.rows:
            pairs = [f"{h}: {c}" if h else c for h, c in zip(table.headers, row.cells, strict=False)]
            unread.append(Sentence(" | ".join(pairs), Where(params.path, row.line)))


def _boilerplate(item: Item) -> bool:
    """The return-value preamble and a text error list (read by ``error_table``)."""
    return (any(word in item.text for word in _BOILERPLATE) and len(item.text) < 80
            or "ACLNN_" in item.text or bool(re.match(r"返回\s*\d{6}", item.text)))


__all__ = ["page_apis", "read_page", "PageError", "PageFacts", "PrototypeParam"]

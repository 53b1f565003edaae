"""The product-support section (产品支持情况, older pages 支持的产品型号): which product lines the
operator supports and which it does not.

Three layouts: the current template's ``<!-- npu="950" id1 -->`` comment above each
``- <term>…</term>：支持/不支持`` bullet, the same bullets without comments, and the older pipe table
``| 产品 | 是否支持 |`` with √/× (some experimental pages: YES/NO under 支持状态). The oldest pages
only list the supported lines, as plain bullets or as a table with no mark column (a row's line
then read from its first cell, else from the chip it names: ``| Atlas A5 … | Ascend950PR |``).
A label maps to vocabulary ids through the products' ``doc_names`` (whitespace, case, 系列/产品 and
a parenthesised remark ignored; a label that is a doc name plus a suffix, or the start of the doc
names of one product line only, maps too); a label naming two lines ("A/B") that maps as a whole gives one
fact, otherwise each half that maps gives its own (as does each of "A、B"); a label nothing maps
keeps ``product=None``.
"""
from __future__ import annotations

import re

from conformance.draft.facts import ProductFact, Sentence, Where
from conformance.draft.page import Item, Page, Section, Table, terms
from conformance.spec.vocabulary import Vocabulary

SECTION_TITLES = ("产品支持情况", "支持的产品型号", "支持产品", "支持的产品")
_YES, _NO = ("√", "✓", "✔", "支持", "是"), ("×", "✗", "✘", "不支持", "否")
_YES_WORDS, _NO_WORDS = ("Y", "YES"), ("N", "NO", "X")  # compared upper-cased
_MARK_HEADERS = ("是否支持", "支持状态", "支持情况")


def product_ids(label: str, vocab: Vocabulary) -> list[str]:
    """The vocabulary ids a product label names ([] when none): the whole label, else each half."""
    table = _doc_names(vocab)
    found: list[str] = []
    for part in re.split(r"[、，,]", label):
        whole = _lookup(part, table, vocab)
        halves = [whole] if whole else [_lookup(half, table, vocab) for half in re.split(r"[/／]", part)]
        found += [pid for pid in halves if pid and pid not in found]
    return found


def _key(label: str) -> str:
    """"Atlas A3 训练系列 " and "Atlas A3 训练系列产品" alike: no spaces, marks, 系列 or 产品."""
    label = re.sub(r"[（(][^）)]*[）)]", "", label)
    return re.sub(r"[\s`。.；;：:]|系列|产品", "", label).lower()


def _doc_names(vocab: Vocabulary) -> dict[str, str]:
    return {_key(name): p.id for p in vocab.products.values() for name in (p.id, *p.doc_names)}


def _lookup(label: str, table: dict[str, str], vocab: Vocabulary) -> str | None:
    key = _key(label)
    if not key:
        return None
    if key in table:
        return table[key]
    soc = vocab.product(label.strip())
    if soc:
        return soc
    # "Atlas 800I A2推理产品" is the doc name "Atlas 800I A2" with a suffix: the longest prefix wins
    prefixes = [name for name in table if len(name) >= 8 and key.startswith(name)]
    if prefixes:
        return table[max(prefixes, key=len)]
    # "Atlas A3 系列产品" begins doc names of one product line only ("…训练…", "…推理…")
    lines = {pid for name, pid in table.items() if len(key) >= 7 and name.startswith(key)}
    return lines.pop() if len(lines) == 1 else None


def read_products(page: Page, vocab: Vocabulary) -> tuple[list[ProductFact], list[Sentence]]:
    """The product facts of the page and the section's sentences that are not product lines."""
    section = page.find(*SECTION_TITLES)
    if section is None:
        return [], []
    facts: list[ProductFact] = []
    unread: list[Sentence] = []
    for table in page.tables_in(section.start, section.end):
        facts += _from_table(table, section, vocab, unread)
    for item in page.items(section.start + 1, section.end):
        where = Where(section.path, item.line)
        line = _from_item(item, vocab, where)
        if line:
            facts += line
        elif not _is_remark(item.text):
            unread.append(Sentence(item.text, where))
    return facts, unread


def _facts(label: str, supported: bool, where: Where, vocab: Vocabulary,
           npu: str | None = None) -> list[ProductFact]:
    ids = product_ids(label, vocab) or [None]
    return [ProductFact(label, pid, supported, where, npu) for pid in ids]


def _from_item(item: Item, vocab: Vocabulary, where: Where) -> list[ProductFact]:
    named = terms(item.raw)
    text = item.text
    label, status = _split_status(text)
    if named:
        label = "、".join(named)
        if len(named) > 1:
            return [f for name in named for f in _facts(name, status is not False, where, vocab,
                                                        item.npu)]
    if status is None and not item.bullet:
        return []
    if status is None and not (named or product_ids(label, vocab)):
        return []
    return _facts(label.rstrip("。."), status is not False, where, vocab, item.npu)


def _split_status(text: str) -> tuple[str, bool | None]:
    """"Label：支持" → ("Label", True); a line without a status → (text, None)."""
    match = re.match(r"^(.*?)\s*[：:]\s*(不支持|支持|√|×|✓|✗)\s*[。.]?\s*$", text)
    if not match:
        return text, None
    return match.group(1), match.group(2) not in ("不支持", "×", "✗")


def _from_table(table: Table, section: Section, vocab: Vocabulary,
                unread: list[Sentence]) -> list[ProductFact]:
    """A check table (a mark column of √/×, YES/NO) or, with no mark column, a listing of the
    supported lines (one a row: "产品型号 | 芯片号 | 支持的数据类型")."""
    if len(table.headers) < 2:
        return []
    column = _mark_column(table)
    facts: list[ProductFact] = []
    for number, row in enumerate(table.rows, 1):
        where = Where(section.path, row.line, "products", number)
        mark = row.cells[column].strip() if column is not None and column < len(row.cells) else ""
        if column is not None and _mark(mark) is not None:
            facts += _facts(row.cells[0], bool(_mark(mark)), where, vocab)
        elif column is None and (ids := _listed(row.cells, vocab)):
            facts += [ProductFact(row.cells[0], pid, True, where) for pid in ids]
        else:
            unread.append(Sentence(" | ".join(row.cells), where))
    return facts


def _mark(cell: str) -> bool | None:
    """True for a supported mark, False for an unsupported one, None for anything else."""
    upper = cell.upper()
    if upper in _YES_WORDS or cell in _YES:
        return True
    return False if upper in _NO_WORDS or cell in _NO else None


def _mark_column(table: Table) -> int | None:
    """The column that marks support: headed 是否支持/支持状态/支持情况, else the second column when
    its every cell is a mark; None for a listing."""
    for index, header in enumerate(table.headers):
        if index and any(word in header for word in _MARK_HEADERS):
            return index
    marks = [row.cells[1].strip() for row in table.rows if len(row.cells) > 1]
    return 1 if marks and all(_mark(m) is not None for m in marks) else None


def _listed(cells: tuple[str, ...], vocab: Vocabulary) -> list[str]:
    """A listing row's product ids: its first cell's label, else a chip (soc) named in another
    cell ("Ascend950PR")."""
    ids = product_ids(cells[0], vocab)
    if ids:
        return ids
    socs = {vocab.product(cell.strip()) for cell in cells[1:]}
    return sorted(pid for pid in socs if pid)


def _is_remark(text: str) -> bool:
    """The boilerplate pointer to the product-form page, not a product line."""
    return "产品形态" in text or "查看源码" in text or not text.strip()

"""The phase-1 error table (返回值 / 返回码 / 错误码 / 描述) of the GetWorkspaceSize section.

One ``ErrorRow`` per description row, the status and code cells' rowspans spread over the rows
they cover. A description cell of several lines (``<br>``) becomes several rows only when every
line is a sentence of its own (each ends with "。" or "；") and none introduces the next ("…如下情况
会出错："): those pages list separate conditions in one cell; a cell that introduces its lines is
one condition and stays one row. Older pages write the list as text ("返回161002
(ACLNN_ERR_PARAM_INVALID)：1.… 2.…", in a code block or bullets): one row per numbered item.
"""
from __future__ import annotations

import re

from conformance.draft.facts import ErrorRow, Sentence, Where
from conformance.draft.page import Page, Section, Table, plain
from conformance.spec.vocabulary import Vocabulary

_STATUS = re.compile(r"ACLNN_[A-Z_]+")
_CODE = re.compile(r"\b(\d{6})\b")
# "返回161002 (ACLNN_ERR_PARAM_INVALID)：…", "返回161002：…", "ACLNN_ERR_PARAM_INVALID：…"
_TEXT_HEAD = re.compile(r"(?:返回\s*[:：]?\s*)?(\d{6})?\s*[（(]?\s*(ACLNN_[A-Z_]+)?\s*[)）]?\s*[:：]\s*(.*)")
_ERROR_TITLES = ("返回值", "返回码", "错误码")
_BULLET = re.compile(r"^\s*(?:[-*+]\s+)?")
_NUMBERED = re.compile(r"(?:^|\s)(?:\d+\s*[.、)）])\s*")


def is_error_table(table: Table) -> bool:
    heads = "".join(table.headers)
    return "错误码" in heads or bool(table.headers) and table.headers[0] in ("返回码", "返回值")


def read_errors(page: Page, section: Section, vocab: Vocabulary,
                unread: list[Sentence]) -> list[ErrorRow]:
    """The error rows of a GetWorkspaceSize section (an empty list when it lists none). Some pages
    list them in a section of their own (返回值 / 错误码) instead: the first such list is read then."""
    path = f"{section.path} > 返回值"
    for table in page.tables_in(section.start, section.end):
        if is_error_table(table):
            return _table_rows(table, path, vocab, unread)
    rows = _text_rows(page, section, path, vocab)
    if rows:
        return rows
    for other in page.sections:
        if not any(word in other.title for word in _ERROR_TITLES):
            continue
        for table in page.tables_in(other.start, other.end):
            if is_error_table(table):
                return _table_rows(table, other.path, vocab, unread)
        if rows := _text_rows(page, other, other.path, vocab):
            return rows
    return []


def _columns(headers: tuple[str, ...]) -> tuple[int, int | None, int]:
    status = next((i for i, h in enumerate(headers) if "返回" in h), 0)
    code = next((i for i, h in enumerate(headers) if "错误码" in h), None)
    text = next((i for i, h in enumerate(headers) if "描述" in h or "说明" in h), len(headers) - 1)
    return status, code, text


def _table_rows(table: Table, path: str, vocab: Vocabulary, unread: list[Sentence]) -> list[ErrorRow]:
    status_at, code_at, text_at = _columns(table.headers)
    rows: list[ErrorRow] = []
    status: str | None = None
    code: int | None = None
    for row in table.rows:
        if text_at >= len(row.cells):
            continue
        status_cell = row.cells[status_at]
        code_cell = row.cells[code_at] if code_at is not None else ""
        if "ACLNN_SUCCESS" in status_cell:
            continue
        # a pipe table cannot span rows: an empty status and code mean "as the row above"
        if status_cell.strip() or code_cell.strip() or status is None:
            status, code = _status(status_cell, code_cell, vocab)
        line = row.lines[text_at]
        for text in conditions(row.cells[text_at]):
            where = Where(path, line, "errors", len(rows) + 1)
            if status is None:
                unread.append(Sentence(" | ".join(row.cells), where))
                break
            rows.append(ErrorRow(status, code, Sentence(text, where)))
    return rows


def conditions(cell: str) -> list[str]:
    """A description cell as its conditions (see the module docstring for when it is split)."""
    lines = [line.strip() for line in cell.split("\n") if line.strip()]
    if len(lines) > 1 and all(line[-1] in "。；;" for line in lines):
        return lines
    return [" ".join(lines)] if lines else []


def _status(status_cell: str, code_cell: str, vocab: Vocabulary) -> tuple[str | None, int | None]:
    found = _STATUS.search(status_cell) or _STATUS.search(code_cell)
    number = _CODE.search(code_cell) or _CODE.search(status_cell)
    code = int(number.group(1)) if number else None
    if found:
        name = found.group(0)
        return name, code if code is not None else vocab.status_codes.get(name)
    if code is not None:
        return vocab.status_name(code), code
    return None, None


def _text_rows(page: Page, section: Section, path: str, vocab: Vocabulary) -> list[ErrorRow]:
    """"返回161001 (ACLNN_ERR_PARAM_NULLPTR)：…" lists, in code blocks or bullets."""
    lines: list[tuple[int, str]] = []
    for block in page.code_in(section.start, section.end):
        lines += [(block.start + 1 + i, text) for i, text in enumerate(block.text.split("\n"))]
    lines = [(line, plain(_BULLET.sub("", text, count=1))) for line, text in lines]
    if not any(_TEXT_HEAD.match(text) and "ACLNN_" in text for _, text in lines):
        lines = [(item.line, plain(item.raw)) for item in page.items(section.start + 1, section.end)]
    rows: list[ErrorRow] = []
    status: tuple[str | None, int | None] = (None, None)
    for line, text in lines:
        head = _TEXT_HEAD.match(text)
        if head and (head.group(1) or head.group(2)):
            status = _status(head.group(2) or "", head.group(1) or "", vocab)
            text = head.group(3)
            if status[1] == 0:  # ACLNN_SUCCESS is no error
                status = (None, None)
                continue
        elif status[0] is None or not text or _TEXT_HEAD.match(text):
            continue
        for condition in _numbered(text):
            where = Where(path, line, "errors", len(rows) + 1)
            rows.append(ErrorRow(status[0] or "", status[1], Sentence(condition, where)))
    return rows


def _numbered(text: str) -> list[str]:
    parts = [p.strip() for p in _NUMBERED.split(text) if p.strip()]
    return parts or ([text.strip()] if text.strip() else [])

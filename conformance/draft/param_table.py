"""The parameter description of the ``aclnnXGetWorkspaceSize`` section (参数说明).

Layouts read: the current HTML table (参数名 / 输入/输出 / 描述 / 使用说明 / 数据类型 / 数据格式 /
维度(shape) / 非连续Tensor, columns found by their header words, rowspan/colspan spread), the
shorter tables and the older pipe tables (参数名 / 输入/输出 / 描述, whatever a column says is read
from the description's prose: "数据类型支持…", "数据格式支持…", "支持非连续的Tensor"), and the oldest
bullet lists ("- self（aclTensor*，计算输入）：…", nested bullets belonging to their parameter).
A cell that says something the readers cannot place goes to ``unread``; "-" means nothing said.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.draft import cells
from conformance.draft.facts import ParamRow, Sentence, Where
from conformance.draft.page import Item, Page, Row, Section, Table, sentences
from conformance.draft.prototype import PLUMBING
from conformance.draft.words import NAME
from conformance.spec.vocabulary import Vocabulary

_PLUMBING_TYPES = ("aclOpExecutor", "aclrtStream")
# and the second phase's arguments, should its rows follow in the same table
_PLUMBING_NAMES = {name.lower() for name in (*PLUMBING, "workspace", "stream")}
_HEADERS = (("usage", "使用说明"), ("dtype", "数据类型"), ("dtype", "dtype"), ("format", "格式"),
            ("format", "format"), ("rank", "维度"), ("rank", "shape"), ("noncontig", "非连续"),
            ("direction", "输入"), ("direction", "输出"), ("direction", "i/o"), ("name", "参数"),
            ("name", "name"), ("description", "描述"), ("description", "说明"),
            ("description", "description"))
_BULLET_PARAM = re.compile(r"^(" + NAME + r")\s*[（(]([^）)]*)[）)]\s*[：:]?\s*(.*)$")
_LIST = r"([A-Za-z0-9_]+(?:\s*[、,，/和]\s*[A-Za-z0-9_]+)*)"
_PROSE_DTYPES = re.compile(r"数据类型(?:仅|只)?支持\s*[:：]?\s*" + _LIST)
_PROSE_SAME = re.compile(r"数据类型(?:需要|需|必须|要)?(?:与|和)\s*(" + NAME
                         + r")\s*(?:的数据类型)?\s*(?:保持)?\s*(?:一致|相同)")
_PROSE_FORMATS = re.compile(r"数据格式(?:仅|只)?支持\s*[:：]?\s*" + _LIST)
_PROSE_RANK = re.compile(r"(\d+)\s*(?:-|~|～|至|到)\s*(\d+)\s*维")
_NUMERALS = "零一二三四五六七八"  # 0-8, the ranks a page writes in words: "维度支持四维或五维"
_PROSE_RANKS = re.compile(r"维度(?:支持|为|仅支持)\s*([0-8" + _NUMERALS + r"])\s*维(?:或\s*([0-8"
                          + _NUMERALS + r"])\s*维)?")
_PROSE_TIE = re.compile(r"维度[^，。；]*?(?:且|并且|需要|需)?(?:与|和)\s*(" + NAME
                        + r")(?:\s*[和、]\s*" + NAME + r")*\s*(?:保持)?一致")
# a usage sentence giving the rank range alone: "shape支持0到8维。", "支持 1-8 维。", "数据维度支持1-8维。"
_USAGE_RANK = re.compile(r"^(?:shape|数据)?\s*(?:维度)?\s*支持\s*(\d)\s*(?:-|~|～|至|到)\s*(\d)\s*维度?"
                         r"\s*[。.]?$")
# a usage sentence giving the shape outright: "shape为(N,C)或者(C)，其中N表示batch size。"
_USAGE_SHAPE = re.compile(r"^shape(?:为|支持)\s*((?:[\[(（][^\])）]*[\])）]|或者|或|、|\s)+?)\s*"
                          r"(?:[，,]\s*其中[^；;]*)?[。.]?$")


@dataclass(frozen=True)
class ParamDescription:
    rows: tuple[ParamRow, ...]
    section: Section  # the GetWorkspaceSize section
    path: str  # the Where.section of the rows ("aclnnXGetWorkspaceSize > 参数说明")
    end: int  # the last line of the description (product notes follow it)
    layout: str  # "table" | "pipe" | "bullets"
    nested: tuple[tuple[str, Item], ...] = ()  # bullets nested under a parameter's bullet


def is_param_table(table: Table) -> bool:
    first = table.headers[0].lower() if table.headers else ""
    return "参数" in first or first == "name" or "参数名" in "".join(table.headers)


def read_params(page: Page, section: Section, vocab: Vocabulary, unread: list[Sentence],
                ctypes: dict[str, str] | None = None) -> ParamDescription | None:
    """The parameter rows of a GetWorkspaceSize section, or None when it describes none;
    ``ctypes`` (the prototype's) tells a dtype cell naming an argument's C type from a dtype."""
    path = section.path if "参数" in section.title else f"{section.path} > 参数说明"
    for table in page.tables_in(section.start, section.end):
        if is_param_table(table):
            rows = _table_rows(table, path, vocab, unread, ctypes or {})
            if rows:
                return ParamDescription(tuple(rows), section, path, table.end,
                                        "table" if table.html else "pipe")
    rows, end, nested = _bullet_rows(page.items(section.start + 1, section.end), path, vocab, unread)
    if rows:
        return ParamDescription(tuple(rows), section, path, end, "bullets", tuple(nested))
    return None


def _columns(headers: tuple[str, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, header in enumerate(headers):
        for key, word in _HEADERS:
            if word in header.lower() and key not in found and index not in found.values():
                found[key] = index
                break
    found.setdefault("name", 0)
    return found


def _table_rows(table: Table, path: str, vocab: Vocabulary, unread: list[Sentence],
                ctypes: dict[str, str]) -> list[ParamRow]:
    columns = _columns(table.headers)
    rows: list[_Row] = []
    for number, row in enumerate(table.rows, 1):
        where = Where(path, row.line, "parameters", number)

        def cell(key: str, row: Row = row) -> str | None:
            index = columns.get(key)
            if index is None or index >= len(row.cells):
                return None
            return "-" if row.spread_from_left(index) else row.cells[index]

        named = cells.name_and_type(cell("name") or "")
        if any(word in (cell("name") or "") for word in _PLUMBING_TYPES):
            continue
        if named is None:
            if not cells.is_empty(" ".join(row.cells)):
                unread.append(Sentence(" | ".join(row.cells), where))
            continue
        if named[0].lower() in _PLUMBING_NAMES:
            continue
        lines = dict(zip(range(len(row.cells)), row.lines))
        usage_at = Where(path, lines.get(columns.get("usage", -1), row.line), "parameters", number)
        built = _Row(named, where, vocab, unread)
        built.declared = ctypes.get(named[0])
        built.direction(cell("direction"))
        built.describe(cell("description") or "", cell("usage"), usage_at)
        built.dtype_cell(cell("dtype"))
        built.format_cell(cell("format"))
        built.rank_cell(cell("rank"))
        built.usage_rank()
        built.noncontig_cell(cell("noncontig"))
        rows.append(built)
    return _ties(rows)


def _number(written: str) -> int:
    return int(written) if written.isdigit() else _NUMERALS.index(written)


def _ties(rows: list[_Row]) -> list[ParamRow]:
    """The rows; a rank tied to a parameter the table does not list (or to itself) is not read:
    its cell goes to review."""
    names = {r.name for r in rows}
    for r in rows:
        if r.rank_same_as is not None and (r.rank_same_as not in names or r.rank_same_as == r.name):
            r.rank_same_as = None
            r.unread.append(Sentence(f"{r.name} 维度(shape): {r.rank_text}", r.where))
    return [r.row() for r in rows]


def _bullet_rows(items: list[Item], path: str, vocab: Vocabulary,
                 unread: list[Sentence]) -> tuple[list[ParamRow], int, list[tuple[str, Item]]]:
    rows: list[_Row] = []
    nested: list[tuple[str, Item]] = []
    current: _Row | None = None
    end = 0
    for item in items:
        if "返回值" in item.text and item.text.strip("*：: ").endswith("返回值"):
            break
        match = _BULLET_PARAM.match(item.text) if item.bullet else None
        if match and (current is None or item.indent <= current.indent):
            named = cells.name_and_type(f"{match.group(1)}（{match.group(2)}）")
            if current is not None:
                rows.append(current)
            current = None
            if named and named[0].lower() not in _PLUMBING_NAMES:
                current = _Row(named, Where(path, item.line, "parameters", len(rows) + 1), vocab, unread)
                current.indent = item.indent
                current.direction(match.group(2))
                current.describe(match.group(3), None, current.where)
            end = item.line
        elif current is not None and item.indent > current.indent:
            current.extra(item)
            nested.append((current.name, item))
            end = item.line
    if current is not None:
        rows.append(current)
    return _ties(rows), end, nested


class _Row:
    """A parameter row being read, cell by cell; ``row()`` freezes it."""

    def __init__(self, named: tuple[str, str | None, bool], where: Where, vocab: Vocabulary,
                 unread: list[Sentence]) -> None:
        self.name, self.ctype, self.optional = named
        self.where, self.vocab, self.unread = where, vocab, unread
        self.indent = 0
        self.declared: str | None = None  # the prototype's C type
        self.dir: str | None = None
        self.reads = False
        self.description = Sentence("", where)
        self.usage: list[Sentence] = []
        self.dtypes: tuple[str, ...] = ()
        self.same_as: str | None = None
        self.formats: tuple[str, ...] = ()
        self.rank: tuple[int, int] | None = None
        self.rank_same_as: str | None = None
        self.rank_said: Sentence | None = None
        self.rank_text = ""
        self.noncontig: bool | None = None

    def direction(self, text: str | None) -> None:
        self.dir = cells.direction(text or "")
        self.reads = cells.read_and_written(text or "")
        if self.dir is None and text is not None and not cells.is_empty(text):
            self.unread.append(Sentence(text, self.where))

    def describe(self, description: str, usage: str | None, usage_at: Where) -> None:
        self.description = Sentence(" ".join(description.split("\n")), self.where)
        self.optional = self.optional or "可选" in description
        if usage is not None and not cells.is_empty(usage):
            self.usage = [Sentence(s, usage_at) for s in sentences(usage)]
        if usage is None:  # no column of its own: the description's prose says it
            self.usage = [Sentence(s, self.where) for s in sentences(description)]
            self._prose(description)

    def extra(self, item: Item) -> None:
        at = Where(self.where.section, item.line, self.where.table, self.where.row)
        self.usage += [Sentence(s, at) for s in sentences(item.text)]
        self._prose(item.text)

    def _prose(self, text: str) -> None:
        if not self.dtypes and (m := _PROSE_DTYPES.search(text)):
            self.dtypes, _ = cells.dtypes(m.group(1), self.vocab)
        if not self.same_as and (m := _PROSE_SAME.search(text)):
            self.same_as = m.group(1)
        if not self.formats and (m := _PROSE_FORMATS.search(text)):
            self.formats, _ = cells.formats(m.group(1), self.vocab)
        if self.rank is None and (m := _PROSE_RANK.search(text)):
            self.rank = (int(m.group(1)), int(m.group(2)))
        if self.rank is None and (m := _PROSE_RANKS.search(text)):
            low, high = (_number(g) for g in (m.group(1), m.group(2) or m.group(1)))
            self.rank = (low, high) if high in (low, low + 1) else None
        if self.rank_same_as is None and (m := _PROSE_TIE.search(text)):
            self.rank_same_as, self.rank_text = m.group(1), m.group(0)
        if self.noncontig is None and "非连续" in text:
            self.noncontig = not re.search(r"不支持[^，,。]*非连续", text)

    def dtype_cell(self, text: str | None) -> None:
        if text is None or cells.is_empty(text):
            return
        if same := cells.same_as(text):
            self.same_as = same
            return
        self.dtypes, unknown = cells.dtypes(text, self.vocab)
        ctype = self.ctype or self.declared
        if ctype and not ctype.startswith(("aclTensor", "aclScalar")):
            unknown = [t for t in unknown if t.lower() not in cells.C_TYPE_WORDS]
        if unknown:
            self.unread.append(Sentence(f"{self.name} 数据类型: {text}", self.where))

    def format_cell(self, text: str | None) -> None:
        if text is None or cells.is_empty(text):
            return
        self.formats, unknown = cells.formats(text, self.vocab)
        if unknown:
            self.unread.append(Sentence(f"{self.name} 数据格式: {text}", self.where))

    def rank_cell(self, text: str | None) -> None:
        """The rank range, or the parameter it shares its rank with, from the cell's first line (the
        lines after it, explaining the dims, go to review with the whole cell)."""
        if text is None or cells.is_empty(text):
            return
        first, _, rest = text.partition("\n")
        self.rank_text = text
        self.rank = cells.rank(first)
        if self.rank is None:
            self.rank_same_as = cells.rank_same_as(first)
        if (self.rank is None and self.rank_same_as is None) or rest.strip():
            self.unread.append(Sentence(f"{self.name} 维度(shape): {text}", self.where))

    def usage_rank(self) -> None:
        """With nothing in the rank cell: the rank a usage sentence gives by writing the shape out
        ("shape为(N,C)或者(C)") or by saying the range alone ("shape支持0到8维"); a sentence with a
        condition (当…时) or saying more says nothing here."""
        if self.rank is not None or self.rank_same_as is not None or self.rank_text:
            return
        for sentence in self.usage:
            if (ranks := _USAGE_RANK.match(sentence.text)) and int(ranks[1]) <= int(ranks[2]):
                self.rank, self.rank_said = (int(ranks[1]), int(ranks[2])), sentence
                return
            match = _USAGE_SHAPE.match(sentence.text)
            if match and (found := cells.rank(match.group(1))) is not None:
                self.rank = found
                return

    def noncontig_cell(self, text: str | None) -> None:
        if text is None or cells.is_empty(text):
            return
        first, _, rest = text.partition("\n")
        self.noncontig = cells.flag(first)
        if self.noncontig is None or rest:
            self.unread.append(Sentence(f"{self.name} 非连续Tensor: {text}", self.where))

    def row(self) -> ParamRow:
        return ParamRow(self.name, self.ctype, self.dir or "input", self.description,
                        tuple(self.usage), self.dtypes, self.same_as, self.formats, self.rank,
                        self.noncontig, self.where, {}, self.optional, self.rank_same_as, self.reads,
                        self.rank_said)

"""HTML fragments of a page read with the standard library's ``html.parser``: inline text (tags
removed, ``<br>``/``<li>``/``<p>`` as line breaks), the ``<term>`` texts of a line, and tables as a
full grid (rowspan/colspan spread), each cell with its source line.
"""
from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

_BREAKS = {"br", "li", "p", "div", "tr"}  # tags whose start or end is a line break in the text
SUP = " ^"  # a superscript (a footnote mark: "BFLOAT16<sup>1</sup>") stays apart from its word


@dataclass(frozen=True)
class GridRow:
    cells: tuple[str, ...]
    lines: tuple[int, ...]  # each cell's line, relative to the fragment (1-based)
    sources: tuple[int, ...]  # each cell's identity: equal numbers are one spread cell
    line: int  # the line of the row's first own cell (its <tr> when it has none)
    header: bool  # a <thead> row, or one made only of <th> cells


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.terms: list[str] = []
        self._term: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BREAKS:
            self.parts.append("\n")
        elif tag == "sup":
            self.parts.append(SUP)
        elif tag == "term":
            self._term = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _BREAKS - {"br"}:
            self.parts.append("\n")
        elif tag == "sup":
            self.parts.append(" ")
        elif tag == "term" and self._term is not None:
            self.terms.append(" ".join("".join(self._term).split()))
            self._term = None

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        if self._term is not None:
            self._term.append(data)


def _parse(fragment: str) -> _Text:
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return parser


def html_text(fragment: str) -> str:
    """The text of an inline fragment: tags removed, entities decoded, breaks as "\\n"."""
    return "".join(_parse(fragment).parts)


def html_terms(fragment: str) -> list[str]:
    """The texts of the fragment's ``<term>`` elements, whitespace folded."""
    return _parse(fragment).terms


@dataclass
class _Cell:
    parts: list[str]
    line: int
    rowspan: int
    colspan: int
    header: bool
    number: int  # the cell's place in the table's source order


class _Table(HTMLParser):
    """Rows of cells of the outermost table; a nested table's text stays in its outer cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[list[_Cell], int, bool]] = []  # cells, <tr> line, in <thead>
        self._row: list[_Cell] | None = None
        self._cell: _Cell | None = None
        self._depth = 0
        self._thead = False
        self._count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        if self._depth > 1 or tag == "table":
            self._text_tag(tag)
            return
        if tag == "thead":
            self._thead = True
        elif tag == "tr":
            self._end_row()
            self._row = []
            self.rows.append((self._row, self.getpos()[0], self._thead))
        elif tag in ("td", "th"):
            self._end_cell()
            if self._row is None:  # a cell with no <tr> before it
                self.handle_starttag("tr", [])
            values = dict(attrs)
            self._cell = _Cell([], self.getpos()[0], _span(values.get("rowspan")),
                               _span(values.get("colspan")), tag == "th", self._count)
            self._count += 1
        else:
            self._text_tag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._depth -= 1
            if self._depth == 0:
                self._end_row()
            return
        if self._depth > 1:
            self._text_tag(tag, end=True)
        elif tag in ("td", "th"):
            self._end_cell()
        elif tag == "tr":
            self._end_row()
        elif tag == "thead":
            self._end_row()
            self._thead = False
        elif tag == "tbody":
            self._end_row()
        else:
            self._text_tag(tag, end=True)

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.parts.append(" ".join(data.split()) if data.strip() else " ")

    def _text_tag(self, tag: str, end: bool = False) -> None:
        if self._cell is not None and tag in _BREAKS and not (end and tag == "br"):
            self._cell.parts.append("\n")
        elif self._cell is not None and tag == "sup":
            self._cell.parts.append(" " if end else SUP)

    def _end_cell(self) -> None:
        if self._cell is not None and self._row is not None:
            self._row.append(self._cell)
        self._cell = None

    def _end_row(self) -> None:
        self._end_cell()
        self._row = None


def _span(value: str | None) -> int:
    try:
        return max(1, int(str(value).strip().strip('"')))
    except ValueError:
        return 1


def html_table(fragment: str) -> list[GridRow]:
    """The fragment's (first, outermost) table as a grid: rowspan/colspan copied into every cell
    they cover, so each row has a value for every column."""
    parser = _Table()
    parser.feed(fragment)
    parser.close()
    pending: dict[int, tuple[int, _Cell]] = {}  # column → (rows still covered, cell)
    grid: list[GridRow] = []
    for cells, tr_line, thead in parser.rows:
        if not cells and not pending:
            continue
        placed: list[tuple[_Cell, bool]] = []  # (cell, spread from an earlier row)
        queue = list(cells)
        while queue or any(col >= len(placed) for col in pending):
            col = len(placed)
            if col in pending:
                left, cell = pending[col]
                placed.append((cell, True))
                pending = _step(pending, col, left)
                continue
            if not queue:
                break
            cell = queue.pop(0)
            for _ in range(cell.colspan):
                if cell.rowspan > 1:
                    pending[len(placed)] = (cell.rowspan - 1, cell)
                placed.append((cell, False))
        own = [c for c, spread in placed if not spread]
        grid.append(GridRow(
            cells=tuple("".join(c.parts) for c, _ in placed),
            lines=tuple(c.line for c, _ in placed),
            sources=tuple(c.number for c, _ in placed),
            line=own[0].line if own else tr_line,
            header=thead or bool(own) and all(c.header for c in own) and not any(s for _, s in placed)))
    return grid


def _step(pending: dict[int, tuple[int, _Cell]], col: int, left: int) -> dict[int, tuple[int, _Cell]]:
    rest = dict(pending)
    if left > 1:
        rest[col] = (left - 1, rest[col][1])
    else:
        del rest[col]
    return rest

"""A Markdown documentation page split into what the readers look at: sections (by heading),
fenced code blocks, tables (HTML and pipe) and text items (bullets and paragraphs), each with its
1-based line. HTML goes through ``html_text`` / ``html_table`` (a real HTML parser); nothing here
matches tags with regular expressions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.draft.html_text import html_table, html_terms, html_text

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+#-]*)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)、])\s+(.*)$")
_PIPE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_NPU = re.compile(r'<!--\s*npu="([^"]*)"')
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


@dataclass(frozen=True)
class Section:
    title: str
    level: int
    path: str  # the titles from level 2 down to this one, joined by " > " (the page title left out)
    start: int  # the heading's line
    end: int  # the section's last line, subsections included


@dataclass(frozen=True)
class CodeBlock:
    start: int  # the opening fence's line
    end: int  # the closing fence's line (the last line of the block when the page forgot it)
    lang: str
    text: str  # the lines between the fences
    closed: bool


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]  # one per grid column (rowspan/colspan spread), text with "\n" breaks
    line: int  # the line of the row's first own cell
    lines: tuple[int, ...]  # each cell's source line (a spread cell keeps its origin's)
    sources: tuple[int, ...]  # equal numbers: one cell spread over several columns or rows

    def spread_from_left(self, index: int) -> bool:
        """The cell at ``index`` is the colspan of the cell to its left (it says nothing itself)."""
        return 0 < index < len(self.sources) and self.sources[index] == self.sources[index - 1]


@dataclass(frozen=True)
class Table:
    start: int
    end: int
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    html: bool


@dataclass(frozen=True)
class Item:
    """A bullet (with its lazy continuation lines) or a paragraph."""

    text: str  # tags removed, links kept as their text, whitespace folded
    raw: str  # as written (continuation lines joined by a space)
    line: int
    indent: int
    bullet: bool
    npu: str | None  # the ``<!-- npu="..." -->`` comment right above it


def clean(text: str) -> str:
    """Inline Markdown/HTML as plain text: tags removed (``<br>`` → newline), links as their text,
    emphasis and code marks and backslash escapes dropped, whitespace folded on each line."""
    return plain(html_text(text))


def plain(text: str) -> str:
    """Text already free of tags (a parsed table cell): Markdown marks dropped, whitespace folded."""
    text = _MD_LINK.sub(r"\1", text)
    text = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"\1", text).replace("`", "")
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)
    return "\n".join(folded for part in text.split("\n") if (folded := " ".join(part.split())))


def sentences(text: str) -> list[str]:
    """Split cleaned text into sentences: at line breaks, then after each "。"."""
    out: list[str] = []
    for line in text.split("\n"):
        for piece in re.split(r"(?<=。)", line):
            piece = piece.strip()
            if piece:
                out.append(piece)
    return out


def terms(raw: str) -> list[str]:
    """The texts of the ``<term>`` elements of a raw line, in order."""
    return html_terms(raw)


class Page:
    """One page's lines and its parts; every part knows its lines."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.code_blocks = _code_blocks(self.lines)
        self._code = {n for b in self.code_blocks for n in range(b.start, b.end + 1)}
        self.sections = _sections(self.lines, self._code)
        self.tables = self._tables()
        self._tabled = {n for t in self.tables for n in range(t.start, t.end + 1)}
        self.title = next((s.title for s in self.sections if s.level == 1), "")

    def line(self, number: int) -> str:
        return self.lines[number - 1]

    def find(self, *titles: str, level: int | None = None) -> Section | None:
        """The first section whose title (cleaned) contains one of ``titles``; a level-1 section
        only when no deeper one does (some pages head a section with "#", and it runs to the end)."""
        found = [s for s in self.sections if (level is None or s.level == level)
                 and any(t in s.title for t in titles)]
        return next((s for s in found if s.level > 1), found[0] if found else None)

    def code_in(self, start: int, end: int) -> list[CodeBlock]:
        return [b for b in self.code_blocks if start <= b.start <= end]

    def tables_in(self, start: int, end: int) -> list[Table]:
        return [t for t in self.tables if start <= t.start <= end]

    def items(self, start: int, end: int) -> list[Item]:
        """Bullets and paragraphs between two lines, outside code blocks, tables and headings."""
        found: list[Item] = []
        npu: str | None = None
        current: list[str] | None = None
        for n in range(start, end + 1):
            text = self.lines[n - 1]
            if n in self._code or n in self._tabled or not text.strip() or _HEADING.match(text):
                current = None
                continue
            if _COMMENT.match(text):
                tag = _NPU.search(text)
                npu = tag.group(1) if tag else None
                current = None
                continue
            bullet = _BULLET.match(text)
            if current is not None and not bullet:
                current.append(text.strip())
                found[-1] = _item(current, found[-1])
                continue
            indent = len(text) - len(text.lstrip())
            body = bullet.group(2) if bullet else text.strip()
            current = [body]
            found.append(_item(current, Item("", body, n, indent, bool(bullet), npu)))
            npu = None
        return found

    def _tables(self) -> list[Table]:
        tables: list[Table] = []
        n = 1
        while n <= len(self.lines):
            text = self.lines[n - 1]
            if n not in self._code and "<table" in text.lower():
                end = n
                while end < len(self.lines) and "</table>" not in self.lines[end - 1].lower():
                    end += 1
                tables.append(_html(self.lines, n, end))
                n = end + 1
            elif n not in self._code and _is_pipe_start(self.lines, n):
                end = n + 1
                while end < len(self.lines) and self.lines[end].strip().startswith("|"):
                    end += 1
                tables.append(_pipe(self.lines, n, end))
                n = end + 1
            else:
                n += 1
        return tables


def _item(parts: list[str], item: Item) -> Item:
    raw = " ".join(parts)
    return Item(" ".join(clean(raw).split()), raw, item.line, item.indent, item.bullet, item.npu)


def _code_blocks(lines: list[str]) -> list[CodeBlock]:
    """Fenced blocks. A fence with a language inside a block opens a new one (the page forgot to
    close the previous block) unless a heading follows it (then it is a closing fence with a stray
    letter, "```l"); a block still open at the end stops before the next heading."""
    blocks: list[CodeBlock] = []
    opened: tuple[int, str] | None = None
    for n, text in enumerate(lines, 1):
        fence = _FENCE.match(text)
        if not fence:
            continue
        if opened is None:
            opened = (n, fence.group(2))
        elif fence.group(2) and not _heading_follows(lines, n):
            blocks.append(_block(lines, opened, n - 1, closed=False))
            opened = (n, fence.group(2))
        else:
            blocks.append(_block(lines, opened, n, closed=True))
            opened = None
    if opened is not None:
        end = next((n - 1 for n in range(opened[0] + 1, len(lines) + 1)
                    if _HEADING.match(lines[n - 1]) and lines[n - 1].startswith("## ")), len(lines))
        blocks.append(_block(lines, opened, end, closed=False))
    return blocks


def _heading_follows(lines: list[str], n: int) -> bool:
    """The first non-blank line after line ``n`` is a Markdown heading (or there is none)."""
    following = next((text for text in lines[n:] if text.strip()), "")
    return not following or bool(_HEADING.match(following))


def _block(lines: list[str], opened: tuple[int, str], end: int, *, closed: bool) -> CodeBlock:
    start, lang = opened
    body = lines[start:end - 1] if closed else lines[start:end]
    return CodeBlock(start, end, lang, "\n".join(body), closed)


def _sections(lines: list[str], code: set[int]) -> list[Section]:
    heads = [(n, len(m.group(1)), clean(m.group(2)))
             for n, text in enumerate(lines, 1) if n not in code and (m := _HEADING.match(text))]
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    for i, (n, level, title) in enumerate(heads):
        end = next((m - 1 for m, lv, _ in heads[i + 1:] if lv <= level), len(lines))
        stack = [(lv, t) for lv, t in stack if lv < level] + [(level, title)]
        path = " > ".join(t for lv, t in stack if lv > 1) or title
        sections.append(Section(title, level, path, n, end))
    return sections


def _html(lines: list[str], start: int, end: int) -> Table:
    grid = html_table("\n".join(lines[start - 1:end]))
    heads = [r for r in grid if r.header]
    body = [r for r in grid if not r.header]
    if not heads and body:
        heads, body = body[:1], body[1:]
    headers = tuple(plain(c) for c in heads[-1].cells) if heads else ()
    rows = tuple(Row(tuple(plain(c) for c in r.cells), start - 1 + r.line,
                     tuple(start - 1 + x for x in r.lines), r.sources) for r in body)
    return Table(start, end, headers, rows, html=True)


def _is_pipe_start(lines: list[str], n: int) -> bool:
    return (lines[n - 1].strip().startswith("|") and n < len(lines)
            and bool(_PIPE_RULE.match(lines[n])) and "-" in lines[n])


def _pipe(lines: list[str], start: int, end: int) -> Table:
    headers = tuple(clean(c) for c in _pipe_cells(lines[start - 1]))
    rows = []
    for n in range(start + 2, end + 1):
        cells = tuple(clean(c) for c in _pipe_cells(lines[n - 1]))
        rows.append(Row(cells, n, (n,) * len(cells), tuple(range(len(cells)))))
    return Table(start, end, headers, tuple(rows), html=False)


def _pipe_cells(text: str) -> list[str]:
    text = text.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    return [c.replace("\\|", "|") for c in re.split(r"(?<!\\)\|", text)]

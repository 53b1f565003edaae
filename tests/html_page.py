"""Reading a rendered HTML report in tests: its tags, the state cells of each table, its text."""
from __future__ import annotations

import re
from html.parser import HTMLParser


class Page(HTMLParser):
    """Every start tag with its attributes, the cells of each table (by the table's id), and the text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.tables: list[str] = []
        self.cells: dict[str, list[dict[str, str]]] = {}
        self.text: list[str] = []
        self.cell: dict[str, str] | None = None  # the state cell being read; its text goes to "_text"
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        self.text.append(" ")
        if tag == "table":
            self.tables.append(a.get("id", ""))
        elif tag == "td" and "data-state" in a and self.tables:
            self.cell = {**a, "_text": ""}
            self.cells.setdefault(self.tables[-1], []).append(self.cell)

    def handle_endtag(self, tag):
        self.text.append(" ")
        if tag == "table" and self.tables:
            self.tables.pop()
        elif tag == "td":
            self.cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self.cell is not None:
            self.cell["_text"] += data

    def cell_text(self, table: str, **match: str) -> str:
        found = [c for c in self.cells[table] if all(c.get(f"data-{k}") == v for k, v in match.items())]
        assert len(found) == 1, (table, match)
        return re.sub(r"\s+", " ", found[0]["_text"]).strip()

    def matrix(self) -> dict[tuple[str, str, str], tuple[str, int, int]]:
        return {(c["data-api"], c["data-clause"], c["data-product"]):
                (c["data-state"], int(c["data-cases"]), int(c["data-failed"]))
                for c in self.cells["compliance-matrix"]}

    def dtypes(self, api: str) -> dict[tuple[str, str], tuple[str, int]]:
        return {(c["data-dtype"], c["data-product"]): (c["data-state"], int(c["data-cases"]))
                for c in self.cells[f"dtypes-{api}"]}

    def all_text(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.text))


def fragment(html: str, start: str, end: str) -> str:
    i = html.index(start)
    return html[i:html.index(end, i)]


def text(html_fragment: str) -> str:
    return Page(html_fragment).all_text().strip()


def case_table(html_fragment: str) -> dict[str, str]:
    """The first counterexample table of a fragment: argument name -> value."""
    table = fragment(html_fragment, '<table class="case">', "</table>")
    names = [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    values = [text(v) for v in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S)]
    return dict(zip(names, values, strict=True))

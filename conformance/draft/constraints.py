"""The constraints section (约束说明; older pages 约束与限制 / 约束): the determinism sentence and every
other sentence, each with its line.

"…默认确定性实现" (or "…为确定性实现", "默认支持确定性计算") is the determinism sentence; "…默认
非确定性实现" (or "默认为非确定性", "…为非确定性实现") is one that says the default is not
deterministic. A bullet that only introduces the bullets under it
("- 确定性计算：") is a label, not a sentence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.draft.facts import Sentence, Where
from conformance.draft.page import Page, plain, sentences

SECTION_TITLES = ("约束说明", "约束与限制", "约束")
_NONDETERMINISTIC = re.compile(r"(?:默认|为|是)(?:为)?非确定性(?:实现|计算)?")
_DETERMINISTIC = re.compile(r"默认(?:为|支持)?确定性|(?:为|是)确定性(?:实现|计算)")


@dataclass(frozen=True)
class Constraints:
    deterministic: Sentence | None
    nondeterministic: bool
    sentences: tuple[Sentence, ...]


def read_constraints(page: Page) -> Constraints:
    section = page.find(*SECTION_TITLES, level=2) or page.find(*SECTION_TITLES)
    if section is None:
        return Constraints(None, False, ())
    determinism: Sentence | None = None
    nondeterministic = False
    found: list[Sentence] = []
    items = page.items(section.start + 1, section.end)
    for index, item in enumerate(items):
        following = items[index + 1] if index + 1 < len(items) else None
        if _is_label(item.text) and following is not None and following.indent > item.indent:
            continue
        for text in sentences(item.text):
            sentence = Sentence(text, Where(section.path, item.line))
            if determinism is None and (_NONDETERMINISTIC.search(text) or _DETERMINISTIC.search(text)):
                determinism = sentence
                nondeterministic = bool(_NONDETERMINISTIC.search(text))
            else:
                found.append(sentence)
    for table in page.tables_in(section.start, section.end):
        for number, row in enumerate(table.rows, 1):
            where = Where(section.path, row.line, "constraints", number)
            found.append(Sentence(plain(" | ".join(table.headers)) + ": " + " | ".join(row.cells),
                                  where))
    return Constraints(determinism, nondeterministic, tuple(found))


def _is_label(text: str) -> bool:
    return text.rstrip().endswith(("：", ":")) or len(text) <= 8 and "。" not in text

"""Which part of a page describes the operator's first phase (its parameters and its errors).

The current pages head it ``## aclnnXGetWorkspaceSize`` (some spell "GetWorkSpaceSize"); a few
head it with the operator's name alone; some experimental pages have neither and describe the
parameters under 参数说明 / 参数 / Parameters, the errors in a 返回值 section after it: then the part
runs from that section to the constraints, the example or the end of the page.
"""
from __future__ import annotations

from conformance.draft.page import Page, Section

_PARAMETER_TITLES = ("参数说明", "参数", "parameters")
_AFTER_TITLES = ("约束", "示例", "样例", "编译", "调用", "example", "constraint")


def workspace_section(page: Page, api: str) -> Section | None:
    """The api's first-phase section (see the module docstring), or None."""
    wanted = f"{api}GetWorkspaceSize".lower()
    tests = (lambda t: t == wanted, lambda t: wanted in t, lambda t: t.endswith("getworkspacesize"))
    for test in tests:
        for section in page.sections:
            if test(_key(section)):
                return section
    for section in page.sections:
        if _key(section) == api.lower() and section.level > 1 and page.tables_in(section.start,
                                                                                    section.end):
            return section
    return _parameter_part(page)


def _key(section: Section) -> str:
    return section.title.replace(" ", "").lower()


def _parameter_part(page: Page) -> Section | None:
    start = next((s for s in page.sections if s.level > 1 and _key(s) in _PARAMETER_TITLES), None)
    if start is None:
        return None
    end = next((s.start - 1 for s in page.sections if s.start > start.start
                and any(word in _key(s) for word in _AFTER_TITLES)), len(page.lines))
    return Section(start.title, start.level, start.path, start.start, end)

"""The GetWorkspaceSize prototype (函数原型): the operator's arguments by name and normalised C type.

The declaration is found as ``aclnnStatus aclnnXGetWorkspaceSize(`` anywhere outside the calling
example (usually a code block of 函数原型; older pages put it in inline code, some forget the
closing fence); its arguments run to the matching parenthesis, comments skipped. ``workspaceSize``
and ``executor`` are the two-phase plumbing, not the operator's parameters, and are left out.
An argument is optional when its name ends in "Optional" or its comment says 可选/optional.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.draft.facts import PrototypeParam
from conformance.draft.words import NAME

_FUNCTION = re.compile(r"aclnnStatus\s+(?:\w+\s+)*?(aclnn\w+)\s*\(", re.ASCII)
_DECL = re.compile(r"aclnnStatus\s+(?:\w+\s+)*?(aclnn\w*?)GetWorkspaceSize\s*\(", re.ASCII)
_ARG = re.compile(rf"^(?P<type>.*?[\s*&])\s*(?P<name>{NAME})\s*(?P<array>\[\s*\w*\s*\])?$")
PLUMBING = ("workspaceSize", "executor")  # the first phase's own outputs, not the operator's
_OPTIONAL_NOTE = re.compile(r"可选|optional", re.IGNORECASE)


@dataclass(frozen=True)
class Prototype:
    api: str  # "aclnnCelu" (the GetWorkspaceSize suffix dropped)
    params: tuple[PrototypeParam, ...]
    line: int  # the declaration's line


def declared_apis(text: str) -> list[str]:
    """Every api whose GetWorkspaceSize is declared in the text, in order, without repeats."""
    found: list[str] = []
    for match in _DECL.finditer(_unescape(text)):
        if match.group(1) not in found:
            found.append(match.group(1))
    return found


def one_phase_functions(text: str) -> list[str]:
    """The aclnn functions declared in the text when none of them is two-phase (no
    GetWorkspaceSize, no workspace or executor argument): a host helper page. [] otherwise."""
    text = _unescape(text)
    found: list[str] = []
    for match in _FUNCTION.finditer(text):
        body = _body(text, match.end())
        names = [code for code, _ in body or []]
        if match.group(1).endswith("GetWorkspaceSize") or body is None or any(
                word in code for code in names for word in ("aclOpExecutor", "workspace")):
            return []
        if match.group(1) not in found:
            found.append(match.group(1))
    return found


def read_prototype(text: str, api: str | None = None) -> Prototype | None:
    """The GetWorkspaceSize declaration of ``api`` (the first one when None) in the page text
    given (the caller leaves the calling example out); None when there is none."""
    text = _unescape(text)
    for match in _DECL.finditer(text):
        if api is not None and match.group(1) != api:
            continue
        body = _body(text, match.end())
        if body is None:
            return None
        line = text.count("\n", 0, match.start()) + 1
        return Prototype(match.group(1), tuple(_params(body)), line)
    return None


def _unescape(text: str) -> str:
    """Markdown escapes of inline code written outside backticks: ``aclTensor\\*`` → ``aclTensor*``."""
    return re.sub(r"\\([*_])", r"\1", text)


def _body(text: str, start: int) -> list[tuple[str, str]] | None:
    """The arguments from ``start`` (just after "(") to the matching ")": each as (code, comment)."""
    args: list[tuple[str, str]] = []
    code: list[str] = []
    comment: list[str] = []
    depth, i = 1, start
    while i < len(text):
        if text.startswith(("//", "/*"), i):
            close = "\n" if text.startswith("//", i) else "*/"
            end = text.find(close, i + 2)
            end = len(text) if end < 0 else end
            _comment(text[i + 2:end], args, code, comment)
            i = end + (0 if close == "\n" else 2)
            continue
        char = text[i]
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 or (char == "," and depth == 1):
            args.append(("".join(code), " ".join(comment)))
            code, comment = [], []
            if depth == 0:
                return args
        elif char in "`" or (char == ";" and depth == 1):
            return None  # the declaration ends without closing its argument list
        else:
            code.append(char)
        i += 1
    return None


def _comment(note: str, args: list[tuple[str, str]], code: list[str], comment: list[str]) -> None:
    """A comment right after an argument's comma, on its line, is about that argument."""
    if args and not "".join(code).strip(" \t"):
        args[-1] = (args[-1][0], f"{args[-1][1]} {note}".strip())
    else:
        comment.append(note)


def _params(body: list[tuple[str, str]]) -> list[PrototypeParam]:
    params: list[PrototypeParam] = []
    for code, comment in body:
        code = " ".join(code.split())
        match = _ARG.match(code)
        if not match or match.group("name").lower() in {p.lower() for p in PLUMBING}:
            continue
        ctype, const = normalise_ctype(match.group("type"), bool(match.group("array")))
        if not ctype or ctype == "void" or ctype.startswith("aclOpExecutor"):
            continue
        name = match.group("name")
        optional = name.endswith("Optional") or bool(_OPTIONAL_NOTE.search(comment))
        params.append(PrototypeParam(name, ctype, const, optional))
    return params


def normalise_ctype(written: str, array: bool = False) -> tuple[str, bool]:
    """("const aclTensor *", False) → ("aclTensor*", True): the base type, then its stars."""
    stars = written.count("*") + (1 if array else 0)
    words = [w for w in re.split(r"[\s*&]+", written) if w]
    const = "const" in words
    base = " ".join(w for w in words if w not in ("const", "struct", "ACLNN_API"))
    return (base + "*" * stars if base else ""), const

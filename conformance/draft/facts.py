"""What a documentation page says, read mechanically and not yet turned into clauses.

``reading`` (page → ``PageFacts``) fills these; ``clauses`` (``PageFacts`` → spec) reads them. Every
fact keeps where it was read (``Where``) so a clause, or a review item, can quote its place.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Where:
    """A place in a page: the section title path, the table (if any) and row, the 1-based line."""

    section: str  # e.g. "aclnnXGetWorkspaceSize > 参数说明" or "产品支持情况"
    line: int
    table: str | None = None  # "parameters" | "errors" | "products" | None
    row: int | None = None  # 1-based body row of that table

    def describe(self) -> str:
        parts = [self.section]
        if self.table:
            parts.append(f"{self.table} table" + (f", row {self.row}" if self.row else ""))
        return ", ".join(parts) + f" (line {self.line})"


@dataclass(frozen=True)
class Sentence:
    """A sentence of the page, as written (whitespace folded, tags removed), and where it is."""

    text: str
    where: Where


#: Draft.review (clauses.py): a review clause quoting a sentence, handed to the clause builders.
Review = Callable[..., None]


@dataclass(frozen=True)
class ProductFact:
    """One product line of the product-support section."""

    label: str  # as written, e.g. "Atlas A2 训练系列产品/Atlas A2 推理系列产品"
    product: str | None  # the vocabulary id, None when the vocabulary does not know the line
    supported: bool
    where: Where
    npu_tag: str | None = None  # the ``<!-- npu="910b" -->`` tag of the current template


@dataclass(frozen=True)
class PrototypeParam:
    """One argument of the GetWorkspaceSize prototype (workspaceSize and executor excluded)."""

    name: str
    ctype: str  # normalised: "aclTensor*", "aclTensorList*", "aclIntArray*", "aclScalar*", "int64_t", ...
    const: bool
    optional: bool  # the page marks it optional (可选) in the prototype or the parameter table


@dataclass(frozen=True)
class ParamRow:
    """One row of the GetWorkspaceSize parameter table, cells as written plus what reads off them."""

    name: str
    ctype: str | None  # from "self(aclTensor*)" when the cell says it
    direction: str  # "input" | "output"
    description: Sentence
    usage: tuple[Sentence, ...]  # the usage-notes cell, one Sentence per <br>/<li>/sentence
    dtypes: tuple[str, ...]  # vocabulary dtype names listed in the dtype cell ("" cell → ())
    dtype_same_as: str | None  # "与self保持一致" / "与self一致" → "self"
    formats: tuple[str, ...]
    rank: tuple[int, int] | None  # "1-8" → (1, 8), "4" → (4, 4), "0-8" → (0, 8)
    noncontiguous: bool | None  # ✓/√ True, ×/✗ False, "-" None
    where: Where
    # product-specific dtype notes: product id → dtypes ("<term>Atlas 训练系列产品</term>：数据类型
    # 不支持BFLOAT16" removes BFLOAT16 for that product; a note that lists dtypes replaces the list)
    product_dtypes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    optional: bool = False
    rank_same_as: str | None = None  # the rank cell "与self一致" / "维度与self保持一致" → "self"
    reads: bool = False  # an output the call reads too (the direction cell "输入/输出")
    rank_said: Sentence | None = None  # the usage sentence giving the rank alone ("shape支持0到8维。")


@dataclass(frozen=True)
class ErrorRow:
    """One row of the phase-1 error table (rowspans already spread over their rows)."""

    status: str  # e.g. "ACLNN_ERR_PARAM_NULLPTR"
    code: int | None  # e.g. 161001
    text: Sentence


@dataclass(frozen=True)
class PageFacts:
    """Everything mechanically read off one operator page."""

    api: str  # "aclnnMseLossBackward"
    page: str  # the path the page was read from (as given)
    products: tuple[ProductFact, ...]
    prototype: tuple[PrototypeParam, ...]
    params: tuple[ParamRow, ...]
    errors: tuple[ErrorRow, ...]
    deterministic: Sentence | None  # the constraints section's determinism sentence, if any
    nondeterministic: bool = False  # the sentence says the default is NOT deterministic
    constraints: tuple[Sentence, ...] = ()  # every other sentence of the constraints section
    unread: tuple[Sentence, ...] = ()  # sentences a reader saw but could not place (for review)
    revision: str | None = None  # the docs checkout's revision the page was read at, if any
    date: str | None = None  # that revision's (or the page's last change's) date, YYYY-MM-DD
    # added for drafting (optional; clauses fall back when absent): the 功能说明 section's
    # "接口功能：…" sentence (the spec's summary and the quote of its values clause), and the
    # sentence above the error table ("第一段接口完成入参校验，出现以下场景时报错：", the phase clause)
    function: Sentence | None = None
    phase1: Sentence | None = None


class PageError(Exception):
    """A page that cannot be read at all: ``part`` names what failed (e.g. "function prototype")."""

    def __init__(self, page: str, part: str, reason: str) -> None:
        super().__init__(f"{page}: cannot read the {part}: {reason}")
        self.page, self.part, self.reason = page, part, reason


class NotOperatorPage(PageError):
    """A page that documents no two-phase operator (no GetWorkspaceSize, no executor): a host
    helper such as a weight-size calculator. Not a failure to read; counted apart."""

    def __init__(self, page: str, functions: list[str]) -> None:
        super().__init__(page, "function prototype", "declares " + ", ".join(functions)
                         + " with neither a GetWorkspaceSize phase nor an executor")
        self.functions = functions


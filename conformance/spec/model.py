"""The in-memory spec: operators, their parameters and constraints (built by ``loader``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.spec.expressions import ExprError, Expression
from conformance.spec.values import DTYPED_KINDS, TENSOR_KINDS
from conformance.spec.vocabulary import Vocabulary

#: What a behavior clause's ``checks`` may name: the check families judged on results.
CHECK_KINDS = ("status", "numerics", "determinism", "inputs-unchanged", "output-untouched-on-error",
               "out-of-bounds-write")
#: What a call can do to a process instead of returning (backends/isolated.py raises them).
PROCESS_KINDS = ("crash", "timeout")
#: Every kind of finding and check tally, in report order (the report and waiver schemas list them
#: too: tests/test_schemas.py holds them to this list).
KINDS = (*CHECK_KINDS, *PROCESS_KINDS, "unspecified")

#: Clause kinds a spec must say how to break (a ``break`` entry): an expression says nothing about how
#: to violate it. generate/breaks.py derives a violation of every other predicate kind from its data.
EXPLICIT_BREAK = frozenset({"expr"})

#: How a same_dtype clause ties tensor lists (its ``lists`` option; the operator schema lists them
#: too): ``all`` one dtype over every element of every parameter; ``position`` the i-th elements
#: of the lists (with every tensor or scalar named) one dtype; ``each`` one dtype within each list.
LIST_TIES = ("all", "position", "each")
#: Tensor roles: an ``inout`` tensor (updated in place: selfRef, a running mean) is read like an
#: input and written like an output; it is never checked unchanged.
READ = ("input", "inout")
WRITTEN = ("output", "inout")


@dataclass(frozen=True)
class Source:
    doc: str
    quote: str
    where: str | None = None  # the place in the document: "<section>, <table> table, row N (line L)"

    def to_json(self) -> dict[str, str]:
        out = {"doc": self.doc, "quote": self.quote}
        if self.where:
            out["where"] = self.where
        return out


@dataclass(frozen=True)
class Review:
    """A sentence of the documents no clause kind could encode (``kind: review``): listed for a
    person in every report, never judged, never a predicate."""

    id: str
    source: Source
    closest: str | None = None  # the pattern that came closest to reading it, if any
    line: int | None = None

    def to_json(self) -> dict[str, str]:
        out = {"id": self.id, **self.source.to_json()}
        if self.closest:
            out["closest"] = self.closest
        return out


@dataclass(frozen=True)
class DocVersion:
    """Which version of the documents a spec encodes: a release, or a page's revision and date."""

    release: str | None = None
    revision: str | None = None
    date: str | None = None  # YYYY-MM-DD
    page: str | None = None  # the page's path in its repository
    note: str | None = None

    def describe(self) -> str:
        return describe_doc_version(self.to_json())

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in (("release", self.release), ("revision", self.revision),
                                  ("date", self.date), ("page", self.page), ("note", self.note)) if v}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # tensor | tensor_list | scalar | string | int_array | bool_array | int | bool | float
    role: str  # input | output | inout (read and written in place) | attr
    values: dict[int, str] | None = None
    optional: bool = False  # documented optional: a null pointer (absent) is a valid argument


@dataclass(frozen=True)
class Constraint:
    id: str
    kind: str
    source: Source
    params: tuple[str, ...] = ()
    on_violation: str | None = None  # a status name, "unspecified", "advisory"; None for behavior
    status: int | None = None
    requires: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    exprs: tuple[Expression, ...] = ()
    checks: tuple[str, ...] = ()
    line: int | None = None
    when: Expression | None = None  # the cases a clause speaks for (behavior: default all;
    # a constraint: the valid cases whose success it promises in particular, see ``owner``)
    only_if: Expression | None = None  # dtype_in, format_in: the cases where the clause holds at all

    @property
    def list_tie(self) -> str:
        """A same_dtype clause's ``lists`` option (LIST_TIES), ``all`` by default."""
        return str(self.options.get("lists", "all"))

    @property
    def ties_dtypes(self) -> bool:
        """Whether the clause makes its parameters one dtype group: a same_dtype clause, except one
        within each list (which ties no parameter to another)."""
        return self.kind == "same_dtype" and self.list_tie != "each"

    @property
    def outcome(self) -> str:
        """error (a status code), unspecified, advisory, or behavior (checked on results only)."""
        if self.kind == "behavior":
            return "behavior"
        return "error" if self.status is not None else str(self.on_violation)


@dataclass(frozen=True)
class OperatorSpec:
    api: str
    summary: str
    documents: dict[str, str]
    reference: str | None  # module:function of the golden model; None: numerics are not judged
    products: tuple[str, ...]
    unsupported: dict[str, Source]
    params: dict[str, Param]
    constraints: tuple[Constraint, ...]
    file: str
    program: Any = None  # generation.Program: how cases are drawn (the ``generate`` section)
    precision: dict[str, Any] = field(default_factory=dict)  # c, extra_terms of the error bound
    doc: Any = field(default=None, compare=False, repr=False)  # yaml_lines.LocatedYaml: lines of fields
    data: dict[str, Any] = field(default_factory=dict)  # domains.Domain by tensor parameter
    doc_version: DocVersion | None = None  # the version of the documents this spec encodes
    reviews: tuple[Review, ...] = ()  # ``kind: review`` entries, in spec order (never constraints)

    def constraint(self, cid: str) -> Constraint:
        for c in self.constraints:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def params_of(self, kind: str | None = None, role: str | tuple[str, ...] | None = None) -> list[str]:
        roles = (role,) if isinstance(role, str) else role
        return [p.name for p in self.params.values()
                if (kind is None or p.kind == kind) and (roles is None or p.role in roles)]

    def owner(self, check: str, names: dict[str, Any], specific: bool = True) -> str:
        """The clause that speaks for ``check`` on a case: the first, in spec order, whose ``when``
        holds among the behavior clauses listing ``check`` and, for ``status``, the constraint
        clauses with a ``when`` (the cases their promise of success covers: RP-EMPTY for an empty
        self). ``specific=False`` skips every clause with a ``when`` (an error from phase 2 breaks
        the phase clause, whatever the case)."""
        for c in self.constraints:
            speaks = check in c.checks if c.kind == "behavior" else check == "status" and c.when is not None
            if speaks and (c.when is None or specific and _holds(c.when, names)):
                return c.id
        return f"{self.api}:{check}"

    def tensor_params(self, role: str | tuple[str, ...] | None = None) -> list[str]:
        """The parameters holding tensors (one tensor or a tensor list), in spec order; ``role``
        one role or several (``READ``, ``WRITTEN``)."""
        roles = (role,) if isinstance(role, str) else role
        return [p.name for p in self.params.values()
                if p.kind in TENSOR_KINDS and (roles is None or p.role in roles)]

    def platform_clause(self, product: str) -> Constraint | None:
        """The ``product_in`` clause promising a status code for every call on ``product``, a line
        the documents mark unsupported; None elsewhere. (A line they mark unsupported with no such
        clause, or do not list, is one where the operator is not applicable: nothing is promised.)"""
        if product in self.products or product not in self.unsupported:
            return None
        return next((c for c in self.constraints if c.kind == "product_in"), None)

    def applicable(self, product: str) -> bool:
        """Whether the documents promise anything on ``product``."""
        return product in self.products or self.platform_clause(product) is not None

    def break_lines(self, clause: Constraint) -> tuple[str, ...]:
        """The product lines a case can break ``clause`` on: a product_in clause, the lines the
        documents mark unsupported; any other, the supported lines."""
        return tuple(self.unsupported) if clause.kind == "product_in" else self.products

    def stand_in(self, product: str) -> str:
        """The product whose dtypes and limits a case on ``product`` is drawn and judged by (bar
        its product_in clause): itself where supported, else the first supported line, so that a
        case on an unsupported line breaks the product_in clause alone."""
        return product if product in self.products else self.products[0]

    def test_dtypes(self, product: str) -> list[str]:
        """The dtypes this operator's valid cases are drawn in on ``product`` (one test item each):
        those its first tensor (or tensor list) parameter admits; none where the operator is not
        applicable."""
        tensors = self.tensor_params()
        return self.dtypes_for(product, tensors[0]) if tensors and product in self.products else []

    def dtype_groups(self) -> list[list[str]]:
        """The parameters with a dtype (tensors, tensor lists, scalars) in groups of one dtype
        (tied by ``same_dtype`` clauses, bar those within each list), the group of the first tensor
        first; parameters in different groups may differ in dtype."""
        order = [p.name for p in self.params.values() if p.kind in DTYPED_KINDS]
        order.sort(key=lambda n: self.params[n].kind == "scalar")  # a tensor's group first
        groups = [[p] for p in order]
        for c in self.constraints:
            if c.ties_dtypes:
                tied = [g for g in groups if set(g) & set(c.params)]
                groups = [g for g in groups if g not in tied] + [sum(tied, [])]
        return sorted((sorted(g, key=order.index) for g in groups), key=lambda g: order.index(g[0]))

    def dtypes_for(self, product: str, param: str) -> list[str]:
        """Dtypes every dtype_in clause on ``param`` admits on ``product`` (document order)."""
        allowed: list[str] | None = None
        for c in self.constraints:
            if c.kind == "dtype_in" and param in c.params:
                listed = c.options["per_product"].get(product, [])
                allowed = listed if allowed is None else [d for d in allowed if d in listed]
        return list(allowed or [])


@dataclass(frozen=True)
class SpecSet:
    vocabulary: Vocabulary
    operators: dict[str, OperatorSpec]
    version: str
    digest: str

    def operator(self, api: str) -> OperatorSpec:
        spec = self.operators.get(api)
        if spec is None:
            lowered = {k.lower(): v for k, v in self.operators.items()}
            spec = lowered.get(api.lower()) or lowered.get("aclnn" + api.lower())
        if spec is None:
            raise KeyError(api)
        return spec


def describe_doc_version(version: dict[str, str] | None) -> str:
    """A document version (``DocVersion.to_json``, as reports hold it) in one line:
    ``release X``, ``revision 1a2b3c4d5e6f (2025-12-25)``."""
    if not version:
        return "not named"
    parts = [f"release {version['release']}"] if version.get("release") else []
    if version.get("revision"):
        parts.append(f"revision {version['revision'][:12]}")
    if version.get("date"):
        parts.append(f"({version['date']})")
    return " ".join(parts)


def _holds(when: Expression, names: dict[str, Any]) -> bool:
    """A ``when`` that cannot be evaluated on a case (a null argument) does not speak for it."""
    try:
        return bool(when.evaluate(names))
    except ExprError:
        return False

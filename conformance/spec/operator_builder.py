"""One operator spec's document, schema-valid already, built into an ``OperatorSpec`` while every
cross-reference the schema cannot see is checked: products, parameters each clause kind may name,
status codes, dtypes, formats, expressions, data domains and the ``generate`` program.

Apart from loader.py, which finds, reads and schema-validates the files and packs: this is the
per-operator semantics, each failure a ``SpecError`` naming the file, line and field.
"""
from __future__ import annotations

from typing import Any

from conformance.errors import SpecError
from conformance.spec.clause_checks import (
    DTYPE_RELATIONS,
    cast_target,
    check_clause_options,
    check_cycles,
    check_dtype_relation,
    check_ids,
    check_kind_params,
    check_list_tie,
)
from conformance.spec.doc_version import doc_version
from conformance.spec.domains import Domain, parse_domain
from conformance.spec.draws import DrawError
from conformance.spec.expressions import ExprError, Expression
from conformance.spec.model import (
    EXPLICIT_BREAK,
    Constraint,
    OperatorSpec,
    Param,
    Review,
    Source,
)
from conformance.spec.program import Program, parse_program
from conformance.spec.schema import dotted
from conformance.spec.values import DTYPED_KINDS, TENSOR_KINDS
from conformance.spec.vocabulary import Vocabulary
from conformance.spec.yaml_lines import LocatedYaml

_TENSOR_CLAUSES = {"format_in", "same_format", "rank_in", "same_shape", "broadcastable", "contiguous"}
#: The parameter kinds each clause kind may name (a tensor-list clause holds for every element).
_WANTED: dict[str, tuple[str, ...]] = {
    "length": ("int_array", "bool_array", "tensor_list"),
    "value_in": ("int", "bool", "float", "scalar", "string"),
    "not_null": (*TENSOR_KINDS, "int_array", "bool_array", "scalar", "string"), "dtype_in": DTYPED_KINDS,
    "same_dtype": DTYPED_KINDS, "data_in": ("tensor",)}


class OperatorBuilder:
    """Turns a schema-valid document into an ``OperatorSpec``, checking every cross-reference."""

    def __init__(self, doc: LocatedYaml, vocab: Vocabulary) -> None:
        self.doc, self.vocab, self.data = doc, vocab, doc.data

    def fail(self, message: str, *path: Any) -> SpecError:
        return SpecError(message, file=self.doc.file, line=self.doc.line_of(path), field=dotted(path))

    def build(self) -> OperatorSpec:
        products = tuple(self._product(p, "products", i) for i, p in enumerate(self.data["products"]))
        unsupported = {self._product(k, "unsupported", k): Source(**v)
                       for k, v in self.data.get("unsupported", {}).items()}
        for pid in unsupported:
            if pid in products:
                raise self.fail(f"{pid} is listed both as supported and unsupported", "unsupported", pid)
        params = {name: Param(name, p["kind"], p["role"],
                              {int(k): v for k, v in p["values"].items()} if "values" in p else None,
                              bool(p.get("optional", False)))
                  for name, p in self.data["params"].items()}
        domains = self.domains = self._domains(params)
        linear_in = self.data.get("precision", {}).get("linear_in")
        if linear_in is not None and (linear_in not in params or params[linear_in].kind != "tensor"
                                      or params[linear_in].role != "input"):
            raise self.fail(f"linear_in names {linear_in!r}, not an input tensor parameter",
                            "precision", "linear_in")
        raw = self.data["constraints"]
        every = [self._review(i, c) if c["kind"] == "review" else self._constraint(i, c, params, products)
                 for i, c in enumerate(raw)]
        check_ids(every, self.fail)
        check_cycles(every, self.fail)
        constraints = [c for c in every if c.kind != "review"]
        platform = [i for i, c in enumerate(every) if c.kind == "product_in"]
        if len(platform) > 1:  # (model.platform_clause takes one)
            raise self.fail(f"a second product_in clause ({every[platform[1]].id}): one says what every "
                            "call on an unsupported product line gets", "constraints", platform[1])
        reviews = tuple(Review(c.id, c.source, raw[i].get("closest"), c.line)
                        for i, c in enumerate(every) if c.kind == "review")
        spec = OperatorSpec(self.data["api"], self.data["summary"], dict(self.data["documents"]),
                            self.data.get("reference"), products, unsupported, params,
                            tuple(constraints), self.doc.file, self._program(params, constraints),
                            dict(self.data.get("precision", {})), self.doc, domains,
                            doc_version=doc_version(self.data["doc_version"], self.fail), reviews=reviews)
        return spec

    def _review(self, i: int, raw: dict[str, Any]) -> Constraint:
        """A review entry, as a clause without a predicate (so ids and requirements are checked
        with the others'); ``build`` keeps it apart from the constraints."""
        at = self.doc.line_of(("constraints", i))
        return Constraint(raw["id"], "review", Source(**raw["source"]), line=at)

    def _domains(self, params: dict[str, Param]) -> dict[str, Domain]:
        out = {}
        for name, raw in self.data.get("data", {}).items():
            if name not in params or params[name].kind != "tensor" or params[name].role != "input":
                raise self.fail(f"data names {name!r}, not an input tensor parameter", "data", name)
            try:
                out[name] = parse_domain(name, raw, frozenset(params))
            except ValueError as exc:
                raise self.fail(str(exc), "data", name) from None
        return out

    def _program(self, params: dict[str, Param], constraints: list[Constraint]) -> Program:
        breaks = {c["id"]: c["break"] for c in self.data["constraints"] if "break" in c}
        try:
            program = parse_program(self.data["generate"], params, breaks)
        except DrawError as exc:
            raise self.fail(str(exc), "generate") from None
        self._check_together(params)
        for i, c in enumerate(constraints):
            if c.outcome == "error" and c.kind in EXPLICIT_BREAK and c.id not in breaks:
                raise self.fail(f"constraint {c.id} has a status code but no 'break': say how a "
                                "case violates it (e.g. break: {draw: {mode: ...}})", "constraints", i)
        return program

    def _check_together(self, params: dict[str, Param]) -> None:
        """``dtype_together`` names parameters with a dtype, and ``from`` a clause of the spec."""
        ids = {c["id"] for c in self.data["constraints"]}
        for i, entry in enumerate(self.data["generate"].get("dtype_together") or ()):
            at = ("generate", "dtype_together", i)
            for j, name in enumerate(entry["params"]):
                if name not in params:
                    raise self.fail(f"dtype_together names unknown parameter {name!r} "
                                    f"(parameters: {', '.join(params)})", *at, "params", j)
                if params[name].kind not in DTYPED_KINDS:
                    raise self.fail(f"dtype_together names {name!r}, a {params[name].kind} "
                                    "parameter: it has no dtype", *at, "params", j)
            if "from" in entry and entry["from"] not in ids:
                raise self.fail(f"dtype_together comes from unknown clause {entry['from']!r}", *at, "from")

    def _product(self, name: str, *path: Any) -> str:
        pid = self.vocab.product(name)
        if pid is None:
            raise self.fail(f"unknown product {name!r} (known: {', '.join(self.vocab.products)})", *path)
        return pid

    def _constraint(self, i: int, raw: dict[str, Any], params: dict[str, Param],
                    products: tuple[str, ...]) -> Constraint:
        at = ("constraints", i)
        kind = raw["kind"]
        for j, name in enumerate(raw.get("params", [])):
            self._check_param(kind, name, params, *at, "params", j)
        status = self._status(raw.get("on_violation"), *at, "on_violation")
        check_kind_params(kind, raw.get("params", []), params, set(self.data.get("data", {})),
                          self.fail, *at)
        check_clause_options(kind, raw, params, self.fail, *at)
        check_list_tie(kind, raw, params, self.fail, *at)
        options = {k: v for k, v in raw.items() if k not in (
            "id", "source", "kind", "params", "on_violation", "requires", "all", "checks", "message",
            "break", "when", "only_if")}
        check_dtype_relation(kind, raw, params, self.vocab.dtype_rules is not None, self.fail, *at)
        if kind in DTYPE_RELATIONS:
            options["dtype_rules"] = self.vocab.dtype_rules
        if kind == "castable":
            options["to_params"], options["to_dtype"] = cast_target(raw, params, self.vocab.dtype,
                                                                    self.fail, *at)
        if kind == "data_in":  # (check_kind_params made sure each has one)
            options["domains"] = {p: self.domains[p] for p in raw["params"]}
        if kind == "product_in":  # (the lines it rejects on are the spec's ``unsupported``)
            options["products"] = products
        if kind == "dtype_in":
            options["per_product"] = self._per_product(raw["per_product"], products, *at)
        if kind == "format_in":
            for j, fmt in enumerate(raw["formats"]):
                if fmt not in self.vocab.formats:
                    raise self.fail(f"unknown format {fmt!r} (known: {', '.join(self.vocab.formats)})",
                                    *at, "formats", j)
        exprs = tuple(self._expr(text, params, *at, "all", j) for j, text in enumerate(raw.get("all", [])))
        return Constraint(raw["id"], kind, Source(**raw["source"]), tuple(raw.get("params", [])),
                          raw.get("on_violation"), status, tuple(raw.get("requires", [])), options,
                          exprs, tuple(raw.get("checks", [])), self.doc.line_of(at),
                          self._expr(raw["when"], params, *at, "when") if "when" in raw else None,
                          self._expr(raw["only_if"], params, *at, "only_if") if "only_if" in raw else None)

    def _check_param(self, kind: str, name: str, params: dict[str, Param], *path: Any) -> None:
        if name not in params:
            raise self.fail(f"unknown parameter {name!r} (parameters: {', '.join(params)})", *path)
        pkind = params[name].kind
        wanted = _WANTED.get(kind, TENSOR_KINDS if kind in _TENSOR_CLAUSES else None)
        if wanted and pkind not in wanted:
            raise self.fail(f"a {kind} constraint needs a {' or '.join(wanted)} parameter, "
                            f"{name!r} is {pkind}", *path)

    def _status(self, outcome: str | None, *path: Any) -> int | None:
        if outcome is None or outcome in ("unspecified", "advisory"):
            return None
        if outcome not in self.vocab.status_codes:
            raise self.fail(f"unknown status code {outcome!r} (known: "
                            f"{', '.join(self.vocab.status_codes)})", *path)
        return self.vocab.status_codes[outcome]

    def _per_product(self, table: dict[str, list[str]], products: tuple[str, ...],
                     *at: Any) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for key, names in table.items():
            pid = self._product(key, *at, "per_product", key)
            if pid not in products:
                raise self.fail(f"{pid} is not a product of this operator", *at, "per_product", key)
            out[pid] = [self._dtype(n, *at, "per_product", key, j) for j, n in enumerate(names)]
        missing = [p for p in products if p not in out]
        if missing:
            raise self.fail(f"no dtype list for product(s) {', '.join(missing)}", *at, "per_product")
        return out

    def _dtype(self, name: str, *path: Any) -> str:
        canonical = self.vocab.dtype(name)
        if canonical is None:
            raise self.fail(f"unknown dtype {name!r} (known: {', '.join(self.vocab.dtypes)})", *path)
        return canonical

    def _expr(self, text: str, params: dict[str, Param], *path: Any) -> Expression:
        try:
            return Expression(text, frozenset(params))
        except ExprError as exc:
            raise self.fail(str(exc), *path) from None

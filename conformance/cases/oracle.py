"""The oracle: for any call, what the documents promise — success, error (codes and clauses),
unspecified, or not applicable on that product."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from conformance.cases.case import Case
from conformance.cases.oracle_memo import memo_key
from conformance.cases.tensor import Tensor
from conformance.errors import CaseError, SpecError
from conformance.spec.expressions import ExprError
from conformance.spec.loader import read_shipped_specs
from conformance.spec.model import Constraint, OperatorSpec, SpecSet
from conformance.spec.predicates import PREDICATES
from conformance.spec.promotion import Unsettled
from conformance.spec.values import TensorList


@dataclass(frozen=True)
class Violation:
    clause: str
    source: dict[str, str]
    message: str
    status: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "source": self.source, "message": self.message}


@dataclass(frozen=True)
class Expectation:
    """What a call must do. ``status`` lists every acceptable code (any broken clause's code)."""

    api: str
    product: str
    expected: str  # success | error | unspecified | not-applicable
    status: tuple[int, ...] = ()
    violations: tuple[Violation, ...] = ()
    unspecified: tuple[Violation, ...] = ()
    advisories: tuple[Violation, ...] = ()
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"api": self.api, "product": self.product, "expected": self.expected,
                "status": list(self.status),
                "violations": [v.to_json() for v in self.violations],
                "unspecified": [v.to_json() for v in self.unspecified],
                "advisories": [v.to_json() for v in self.advisories], "reason": self.reason}


def arg_metas(case: Case, specs: SpecSet) -> dict[str, Any]:
    """The case's arguments with every data-carrying ``Tensor`` reduced to its ``TensorMeta``;
    where a parameter has a value domain, ``outside`` says whether its data leaves it."""
    vocab = specs.vocabulary
    out: dict[str, Any] = {}
    def meta(value: Any) -> Any:
        if isinstance(value, Tensor):
            dtype = value.dtype_name or vocab.dtype_of_numpy(value.array.dtype) or str(value.array.dtype)
            return value.meta(dtype)
        return value

    for name, value in case.args.items():
        out[name] = value.map(meta) if isinstance(value, TensorList) else meta(value)
    domains = specs.operator(case.api).data if case.api in specs.operators else {}
    for name, domain in domains.items():
        value = case.args.get(name)
        if isinstance(value, Tensor) and value.array.size and domain.applies(out):
            try:
                inside = bool(domain.inside(value.array, out).all())
            except ExprError:
                continue  # bounds need an argument that is missing: another clause says so
            out[name] = replace(out[name], outside=not inside)
    return out


def explain(case: Case, specs: SpecSet | None = None) -> Expectation:
    """Judge ``case`` against its operator's spec (the shipped specs by default)."""
    specs = specs or read_shipped_specs()
    try:
        spec = specs.operator(case.api)
    except KeyError:
        raise CaseError(f"unknown api {case.api!r} (known: {', '.join(specs.operators)})") from None
    if case.product is None:
        raise CaseError("the case names no product: add 'product:' or pass --product")
    if not spec.applicable(case.product):
        source = spec.unsupported.get(case.product)
        reason = source.quote if source else f"{spec.api} does not list {case.product}"
        return Expectation(spec.api, case.product, "not-applicable", reason=reason)
    names = arg_metas(case, specs)
    key = memo_key(spec, case.product, names)
    known = _MEMO.get(key) if key is not None else None
    if known is not None and known[0] is spec:
        return known[1]
    expectation = judge_metas(spec, case.product, names)
    if key is not None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = (spec, expectation)  # (the spec kept alive: its id is not reused meanwhile)
    return expectation


#: Expectations already worked out: the generator, the judge and the reference backend each ask
#: about the same case (three to four times per case, the costliest part of a rejected one), and
#: the answer depends only on the spec, the product and the arguments' metadata (oracle_memo.py).
_MEMO: dict[tuple[Any, ...], tuple[OperatorSpec, Expectation]] = {}
_MEMO_SIZE = 4096


def judge_metas(spec: OperatorSpec, product: str, names: dict[str, Any], partial: bool = False
                ) -> Expectation:
    """What ``spec`` promises on ``product`` for arguments given as metadata (``arg_metas``).
    ``partial``: some arguments are unknown (a vendor's case file lists inputs only), so a clause
    that cannot be evaluated without them is skipped instead of being a spec error."""
    return _expectation(spec, product, _Evaluator(spec, names, product, partial).run())


def _expectation(spec: OperatorSpec, product: str, broken: list[tuple[Constraint, str]]) -> Expectation:
    def pick(outcome: str) -> tuple[Violation, ...]:
        # an Unsettled message (the documents disagree: spec/promotion.py) promises nothing
        return tuple(Violation(c.id, c.source.to_json(), msg, c.status)
                     for c, msg in broken
                     if ("unspecified" if isinstance(msg, Unsettled) else c.outcome) == outcome)
    errors, unspecified, advisories = pick("error"), pick("unspecified"), pick("advisory")
    if errors:
        codes = tuple(sorted({v.status for v in errors if v.status is not None}))
        return Expectation(spec.api, product, "error", codes, errors, unspecified, advisories,
                           reason="; ".join(f"{v.clause}: {v.message}" for v in errors))
    if unspecified:
        return Expectation(spec.api, product, "unspecified", (), (), unspecified, advisories,
                           reason="; ".join(f"{v.clause}: {v.message}" for v in unspecified))
    return Expectation(spec.api, product, "success", advisories=advisories)


class _Evaluator:
    """Evaluates every predicate clause once, after the clauses it ``requires``."""

    def __init__(self, spec: OperatorSpec, names: dict[str, Any], product: str, partial: bool) -> None:
        self.spec, self.names, self.partial = spec, names, partial
        # on a line the documents mark unsupported, the clauses but product_in judge the case as on
        # the line it was drawn for (its dtypes and limits): it breaks product_in alone
        self.product, self.own_product = spec.stand_in(product), product
        self.by_id = {c.id: c for c in spec.constraints}
        self.result: dict[str, list[str] | None] = {}  # None: skipped (a requirement failed)

    def run(self) -> list[tuple[Constraint, str]]:
        broken = []
        for c in self.spec.constraints:
            if c.kind == "behavior":
                continue
            for msg in self._eval(c, ()) or []:
                broken.append((c, msg))
        return broken

    def _eval(self, c: Constraint, stack: tuple[str, ...]) -> list[str] | None:
        if c.id in self.result:
            return self.result[c.id]
        if c.id in stack:
            raise SpecError(f"constraint {c.id} requires itself through {' -> '.join(stack)}",
                            file=self.spec.file, line=c.line)
        ok = all(self._eval(self.by_id[r], stack + (c.id,)) == [] for r in c.requires)
        self.result[c.id] = self._predicate(c) if ok else None
        return self.result[c.id]

    def _predicate(self, c: Constraint) -> list[str] | None:
        try:
            if c.only_if is not None and not c.only_if.evaluate(self.names):
                return []  # (the clause speaks only where its condition holds)
            product = self.own_product if c.kind == "product_in" else self.product
            return PREDICATES[c.kind](c, self.names, product)
        except ExprError as exc:
            if self.partial:
                return None  # (skipped, as when a requirement fails)
            raise SpecError(f"constraint {c.id} cannot be evaluated for this case ({exc}); list the "
                            "clauses it depends on under 'requires'", file=self.spec.file,
                            line=c.line) from None

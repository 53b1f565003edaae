"""Load-time dry run of a spec's ``generate`` section, so a bad spec stops at load, never mid-run.

The schema and the builder only see the text of a spec. Whether its draws, args, breaks and
worked examples actually produce cases is only known by running them, so the loader runs them
once here: every example parsed as a case, and the program evaluated with a few deterministic
choosers (the boundary phase's low and high ends plus the extreme corners Hypothesis can reach).
Each failure becomes a ``SpecError`` naming the example, draw, arg or clause at fault.

Loading a spec is reading it (spec/loader.py) and then this dry run: ``load_specs`` and
``shipped_specs`` here are the ones the rest of the suite, and its public API, use.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from conformance.cases.case import Case, case_from_dict, case_to_dict
from conformance.cases.oracle import explain
from conformance.cases.tensor import TensorMeta
from conformance.errors import CaseError, SpecError
from conformance.generate.build import broken_cases, build_case, can_break
from conformance.generate.choosers import FixedChooser
from conformance.generate.draw_checks import Fail, attempt, check_literal_ranges, dry_run_program
from conformance.spec.draws import Chooser
from conformance.spec.loader import read_operator, read_shipped_specs, read_specs, spec_dirs
from conformance.spec.model import OperatorSpec, SpecSet
from conformance.spec.schema import dotted
from conformance.spec.vocabulary import Vocabulary

T = TypeVar("T")

# The size axis is dry-run at the ci profile's size (shapes only, so it costs nothing more).
DRY_RUN_SIZE = 1 << 20


class _Extreme:
    """Every integer and option at one place (low, high or middle), every boolean ``flag``, for
    every label, even those FixedChooser keeps low: a sub_broadcast dropping all the dims it may,
    or a value only the middle of a range gives (``10 // (x - 2)`` for x in [0, 4])."""

    def __init__(self, where: str, flag: bool) -> None:
        self.where, self.flag = where, flag

    def integer(self, lo: int, hi: int, label: str) -> int:
        hi = max(lo, hi)  # as both real choosers do with an inverted range
        return {"low": lo, "high": hi, "middle": (lo + hi) // 2}[self.where]

    def choice(self, options: Sequence[T], label: str) -> T:
        return options[{"low": 0, "high": -1, "middle": len(options) // 2}[self.where]]

    def boolean(self, label: str) -> bool:
        return self.flag


# The boundary phase's modes (strategies._MODES) first, then the extremes.
_CHOOSERS: tuple[tuple[str, Chooser], ...] = (
    ("low end", FixedChooser("min")), ("high end", FixedChooser("max")),
    ("low end with empty dims", FixedChooser("min", frozenset({"empty"}))),
    ("high end with views", FixedChooser("max", frozenset({"views"}))),
    ("lowest corner", _Extreme("low", True)), ("highest corner", _Extreme("high", True)),
    ("middle", _Extreme("middle", False)))
_BREAK_CHOOSERS = _CHOOSERS[:2]  # boundary breaks each clause at its low and high end only


def load_specs(directory: str | Path | None = None) -> SpecSet:
    """Every operator spec in ``directory`` (default: the shipped ones), read and dry-run."""
    return check_specs(read_specs(directory))


def shipped_specs() -> SpecSet:
    """The specs of every active pack (spec/loader.py ``spec_dirs``), read and dry-run once per
    process and pack set."""
    return _checked(spec_dirs())


@cache
def _checked(dirs: tuple[Path, ...]) -> SpecSet:  # dirs: the cache key (the same as spec_dirs())
    return check_specs(read_shipped_specs())


def load_operator(path: Path, vocab: Vocabulary, text: str | None = None) -> OperatorSpec:
    """One operator spec, read and dry-run; ``text`` overrides the file's contents."""
    spec = read_operator(path, vocab, text)
    check_generation(spec, vocab, _fail_at(spec))
    return spec


def check_specs(specs: SpecSet) -> SpecSet:
    """``specs`` after dry-running each operator's ``generate`` section."""
    for spec in specs.operators.values():
        check_generation(spec, specs.vocabulary, _fail_at(spec))
    return specs


def _fail_at(spec: OperatorSpec) -> Fail:
    doc = spec.doc
    return lambda message, *path: SpecError(message, file=doc.file, line=doc.line_of(path),
                                            field=dotted(path))


def check_generation(spec: OperatorSpec, vocab: Vocabulary, fail: Fail) -> None:
    """Raise ``fail(...)`` unless every example is a valid case and the program draws cases."""
    if not spec.tensor_params():
        raise fail("an operator needs at least one tensor (or tensor_list) parameter (its dtype "
                   "names the test items)", "params")
    first = spec.tensor_params()[0]
    for product in spec.products:
        if not spec.test_dtypes(product):
            raise fail(f"no dtype of {first!r} is admitted on {product}: a dtype_in clause on "
                       f"{first!r} must list some for every product", "constraints")
    check_literal_ranges(spec, fail)
    check = _Cases(SpecSet(vocab, {spec.api: spec}, vocab.spec_version, "load"), spec, fail)
    for i, example in enumerate(spec.program.examples):
        _check_example(check.specs, spec, i, example, fail)
    for label, ch in _CHOOSERS:
        dry_run_program(spec, ch, label, fail)
        check.valid(ch, label)
    for label, ch in _BREAK_CHOOSERS:
        check.breaks(ch, label)
    if spec.program.large:
        for label, ch in _CHOOSERS:
            check.large(ch, label)


def _check_example(specs: SpecSet, spec: OperatorSpec, i: int, example: dict[str, Any],
                   fail: Fail) -> None:
    # exactly what strategies.boundary_cases does with an example, for the first product
    data = {"api": spec.api, "product": spec.products[0], "args": example["args"]}
    try:
        case_from_dict(data, specs, f"{spec.file}: generate.examples[{i}]")
    except CaseError as exc:
        raise fail(f"example {i} is not a valid case: {exc.message}", "generate", "examples", i,
                   *_field_path(exc.field)) from None


def _field_path(dotted: str | None) -> tuple[str, ...]:
    return tuple(dotted.split(".")) if dotted else ()


class _Cases:
    """Whole cases as the boundary phase and Hypothesis build them, each saved and judged once."""

    def __init__(self, specs: SpecSet, spec: OperatorSpec, fail: Fail) -> None:
        self.specs, self.spec, self.fail = specs, spec, fail
        self.seen: set[str] = set()

    def valid(self, ch: Chooser, label: str) -> None:
        """Every product and dtype (dtype-only twins are judged once: that keeps load fast)."""
        for product in self.spec.products:
            for dtype in self.spec.test_dtypes(product):
                case = attempt(lambda p=product, d=dtype: build_case(
                    self.spec, self.specs.vocabulary, p, d, ch), "the generate section", label,
                    self.fail, "generate")
                self.check(case, f"the {label} case for {product} {dtype}", "generate")
                for name, domain in self.spec.data.items() if case is not None else ():
                    # materialize draws data between the bounds: they must be numbers here
                    attempt(lambda d=domain, c=case: d.bounds(c.args), f"data.{name}", label, self.fail,
                            "data", name)

    def large(self, ch: Chooser, label: str) -> None:
        """The size axis must draw valid cases too (shapes only: no data is made here)."""
        for product in self.spec.products:
            dtype = self.spec.test_dtypes(product)[0]
            case = attempt(lambda p=product, d=dtype: build_case(
                self.spec, self.specs.vocabulary, p, d, ch, size_max=DRY_RUN_SIZE),
                "the large draws", label, self.fail, "generate", "large")
            e = explain(case, self.specs) if case is not None else None
            if e is None or e.expected == "error":  # (unspecified ones are probes, as elsewhere)
                why = e.reason if e is not None else "no case"
                raise self.fail(f"the large draws make an invalid case at the {label} on {product}: "
                                f"{why}", "generate", "large")

    def breaks(self, ch: Chooser, label: str) -> None:
        """Every breakable clause broken as strategies._broken_at_limit does, on every product."""
        spec = self.spec
        for i, c in enumerate(spec.constraints):
            if c.outcome not in ("error", "unspecified") or not can_break(spec, c.id):
                continue
            path = ("constraints", i, "break") if c.id in spec.program.breaks else ("constraints", i)
            for product in spec.break_lines(c):
                dtype = spec.test_dtypes(spec.stand_in(product))[0]
                cases = attempt(lambda p=product, d=dtype, cid=c.id: broken_cases(
                    spec, self.specs.vocabulary, p, d, ch, cid), f"breaking {c.id}", label,
                    self.fail, *path)
                for case in cases:
                    self.check(case, f"a {label} case breaking {c.id} on {product}", *path)

    def check(self, case: Case | None, what: str, *path: Any) -> None:
        """A generated case must survive being saved as a case file (findings are) and be judged."""
        if case is None:
            return
        key = repr(sorted((k, _structure(v)) for k, v in case.args.items()))
        if key in self.seen:
            return
        self.seen.add(key)
        try:
            case_from_dict(case_to_dict(case, case.args), self.specs)
        except CaseError as exc:
            raise self.fail(f"{what} is not a valid case: {exc.field}: {exc.message}",
                            *path, *_arg_key(exc.field, path)) from None
        _judge(self.specs, case, what, self.fail)


def _structure(value: Any) -> Any:
    # the dtype of a tensor never decides whether a case can be saved or judged, only how
    return (value.shape, value.strides, value.offset, value.format) if isinstance(value, TensorMeta) \
        else value


def _arg_key(dotted: str | None, path: tuple[Any, ...]) -> tuple[str, ...]:
    # a bad argument of a valid case is the args entry that made it
    parts = _field_path(dotted)
    return parts[:2] if path == ("generate",) and parts[:1] == ("args",) else ()


def _judge(specs: SpecSet, case: Case, what: str, fail: Fail) -> None:
    try:
        explain(case, specs)
    except SpecError as exc:
        # the oracle names the clause by its line; the field makes the message like the others
        clauses = specs.operator(case.api).constraints
        index = next((i for i, c in enumerate(clauses) if c.line is not None and c.line == exc.line),
                     None)
        path = ("constraints",) if index is None else ("constraints", index)
        raise fail(f"{exc.message} (on {what})", *path) from None

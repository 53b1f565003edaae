"""Hypothesis strategies for cases, and the deterministic boundary cases, all from the specs.

A drawn case is structure only (TensorMeta arguments) plus a data seed and a value regime; the
data itself comes from a numpy Generator when the case is materialised, so Hypothesis shrinks
the structure and never has to shrink bulk arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import assume
from hypothesis import strategies as st

from conformance.cases.case import Case, case_from_dict
from conformance.cases.materialize import REGIMES
from conformance.cases.oracle import Expectation, explain
from conformance.generate.build import broken_cases, build_case, can_break
from conformance.generate.choosers import FixedChooser, HypothesisChooser
from conformance.generate.exemptions import exemptions
from conformance.spec.draws import Chooser
from conformance.spec.model import OperatorSpec, SpecSet
from conformance.spec.values import dtypes_of


@dataclass(frozen=True)
class Drawn:
    """A case to run: structure, the seed and regime of its data, and where it came from."""

    case: Case
    seed: int = 0
    regime: str = "ordinary"
    origin: str = ""
    target: str | None = None  # the clause an invalid case was built to break
    data_file: str | None = None  # saved input arrays (.npz) of a replayed case


def _data(ch: Chooser) -> tuple[int, str]:
    return ch.integer(0, 2**32 - 1, "seed"), ch.choice(REGIMES, "regime")


def breaks_only(expectation: Expectation, clause: str) -> bool:
    """True when ``clause`` is broken and no other clause with a status code or unspecified is."""
    broken = {v.clause for v in expectation.violations + expectation.unspecified}
    return broken == {clause}


def valid_cases(specs: SpecSet, api: str, product: str, dtype: str, size_max: int = 0,
                regime: str | None = None) -> st.SearchStrategy[Drawn]:
    """Cases the spec's ``generate`` section draws for one product and dtype; with ``size_max``,
    cases of the size axis (the ``large`` draws), in value ``regime``."""
    spec = specs.operator(api)

    @st.composite
    def draw(pick: st.DrawFn) -> Drawn:
        ch = HypothesisChooser(pick)
        case = build_case(spec, specs.vocabulary, product, dtype, ch, size_max=size_max)
        assert case is not None
        seed, drawn_regime = _data(ch)
        origin = f"large {dtype}" if size_max else f"valid {dtype}"
        return Drawn(case, seed, regime or drawn_regime, origin)

    return draw()


def invalid_cases(specs: SpecSet, api: str, product: str, clause: str) -> st.SearchStrategy[Drawn]:
    """Cases that break exactly ``clause`` (any admitted dtype), as the oracle sees them."""
    spec = specs.operator(api)
    dtypes = spec.test_dtypes(spec.stand_in(product))  # (a product_in item: an unsupported line)

    @st.composite
    def draw(pick: st.DrawFn) -> Drawn:
        ch = HypothesisChooser(pick)
        dtype = ch.choice(dtypes, "dtype")
        case = build_case(spec, specs.vocabulary, product, dtype, ch, clause)
        assume(case is not None and breaks_only(explain(case, specs), clause))
        seed, regime = _data(ch)
        return Drawn(case, seed, regime, f"breaks {clause}", clause)

    return draw()


def large_corners(specs: SpecSet, api: str, product: str, dtype: str, size_max: int,
                  regimes: tuple[str, ...]) -> list[Drawn]:
    """The size axis's deterministic cases: the high end of every large draw (the largest tensor
    near ``size_max``), in each value regime (Hypothesis starts from the low end, 64 Ki)."""
    spec = specs.operator(api)
    case = build_case(spec, specs.vocabulary, product, dtype, FixedChooser("max"), size_max=size_max)
    return [Drawn(case, 0, regime, f"large {dtype} high end") for regime in regimes] if case else []


def breakable(spec: OperatorSpec, outcome: str) -> list[str]:
    """Clause ids with the given outcome (error | unspecified) that the generator can break."""
    return [c.id for c in spec.constraints if c.outcome == outcome and can_break(spec, c.id)]


_MODES = (("min", frozenset()), ("max", frozenset()), ("min", frozenset({"empty"})),
          ("max", frozenset({"views"})), ("min", frozenset({"absent"})))


def boundary_cases(specs: SpecSet, api: str, product: str, notes: list[str] | None = None) -> list[Drawn]:
    """The deterministic first phase: worked examples, low and high ends of every draw per dtype,
    empty and view variants, every way to break each clause at its limit, and each conditional
    clause's exemptions (exemptions.py: a valid case per disjunct true alone; ``notes`` gains a
    line for each the search found no case for)."""
    spec = specs.operator(api)
    vocab = specs.vocabulary
    out: list[Drawn] = []
    for i, example in enumerate(spec.program.examples):
        case = case_from_dict({"api": api, "product": product, "args": example["args"]}, specs,
                              f"{spec.file}: generate.examples[{i}]")
        out.append(Drawn(case, origin=f"example {i}: {example.get('note', '')}".strip()))
    dtypes = spec.test_dtypes(product)
    for dtype in dtypes:
        for mode, flags in _MODES:
            case = build_case(spec, vocab, product, dtype, FixedChooser(mode, flags))
            if case is not None:
                out.append(Drawn(case, origin=f"{mode} {dtype} {' '.join(sorted(flags))}".strip()))
        out += _mixed(specs, spec, product, dtype)
    for outcome in ("error", "unspecified"):
        for clause in breakable(spec, outcome):
            for mode in ("min", "max"):
                out += _broken_at_limit(specs, spec, product, dtypes[0], clause, mode)
    for e in exemptions(specs, api, product):
        if e.case is not None:
            out.append(Drawn(e.case, origin=f"exempt: {e.describe()}"))
        elif notes is not None:
            notes.append(f"no valid case found with {e.describe()}")
    return _unique(out)


def _mixed(specs: SpecSet, spec: OperatorSpec, product: str, dtype: str) -> list[Drawn]:
    """A valid case for each other dtype each untied tensor group may have beside ``dtype``."""
    out = []
    for group in spec.dtype_groups()[1:]:
        for other in spec.dtypes_for(product, group[0]):
            if other != dtype:
                ch = FixedChooser("min", picks={f"dtype_{group[0]}": other})
                case = build_case(spec, specs.vocabulary, product, dtype, ch)
                if case is not None and dtypes_of(case.args[group[0]])[:1] == [other]:
                    out.append(Drawn(case, origin=f"mixed {dtype} with {'/'.join(group)} {other}"))
    return out


def _broken_at_limit(specs: SpecSet, spec: OperatorSpec, product: str, dtype: str, clause: str,
                     mode: str) -> list[Drawn]:
    cases = broken_cases(spec, specs.vocabulary, product, dtype, FixedChooser(mode), clause)
    return [Drawn(c, origin=f"breaks {clause} ({mode})", target=clause) for c in cases]


def _unique(drawn: list[Drawn]) -> list[Drawn]:
    seen, out = set(), []
    for d in drawn:
        key = repr(sorted(d.case.args.items()))
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out

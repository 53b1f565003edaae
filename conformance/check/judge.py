"""Run one case against a backend and judge it: the check kinds of DESIGN.md, per family.

A test item asks for one family of checks, so a failing clause of one family never hides
another: ``status`` (code and phase, and unspecified observations), ``numerics``,
``determinism``, and ``memory`` (inputs-unchanged, output-untouched-on-error, out-of-bounds-write).
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.backends.protocol import PHASE_WORKSPACE, CallResult, call_checked
from conformance.cases.materialize import Materialized, materialize, replica
from conformance.cases.oracle import Expectation, explain
from conformance.cases.tensor import Tensor
from conformance.check.bounds import bound_dtype
from conformance.check.case_store import materialize_saved
from conformance.check.describe import describe_call, describe_status
from conformance.check.goldens import GoldenFn, GoldenUnavailable, golden_for
from conformance.check.guards import changed_inputs, out_of_bounds_writes, same_bits, touched_outputs
from conformance.check.precision import SCALE, cann_message
from conformance.check.precision import judge as judge_numerics
from conformance.check.results import NO_REFERENCE, Check, Finding
from conformance.generate.strategies import Drawn
from conformance.spec.model import READ, WRITTEN, OperatorSpec, SpecSet
from conformance.spec.values import flat_arg, flat_tensors

FAMILIES = ("status", "numerics", "determinism", "memory")
#: The check kinds whose judgement counts as evidence for an item of each family (memory: the
#: output-side checks, which need the call to have succeeded or failed as documented).
EVIDENCE = {"status": ("status", "unspecified"), "numerics": ("numerics",), "determinism": ("determinism",),
            "memory": ("output-untouched-on-error", "out-of-bounds-write")}


@dataclass
class Verdict:
    expectation: Expectation
    checks: list[Check] = field(default_factory=list)
    observations: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    ratios: list[tuple[str, float]] = field(default_factory=list)  # (dtype, worst error/bound)
    materialized: Materialized | None = None


class Judge:
    """Calls ``backend`` on cases of one product and checks the results against the oracle."""

    def __init__(self, backend: Any, specs: SpecSet, product: str, standard: str = "strict",
                 golden: str | None = None) -> None:
        self.backend, self.specs, self.product, self.standard = backend, specs, product, standard
        self.name = str(getattr(backend, "name", type(backend).__name__))
        self.golden = golden  # what judges numerics where a spec has no reference (check/goldens.py)
        self._goldens: dict[str, GoldenFn | None] = {}

    def golden_of(self, spec: OperatorSpec) -> GoldenFn | None:
        """The function judging ``spec``'s numerics, or None: they are not judged (no-reference)."""
        if spec.api not in self._goldens:
            self._goldens[spec.api] = golden_for(spec, self.golden)
        return self._goldens[spec.api]

    def judge(self, drawn: Drawn, families: tuple[str, ...] = FAMILIES) -> Verdict:
        spec = self.specs.operator(drawn.case.api)
        expectation = explain(drawn.case, self.specs)
        run = _Run(self, spec, drawn, Verdict(expectation))
        if expectation.expected != "not-applicable":
            with np.errstate(all="ignore"):  # inf/NaN regimes are deliberate; warnings are noise
                run.go(families)
        return run.verdict


class _Run:
    def __init__(self, judge: Judge, spec: OperatorSpec, drawn: Drawn, verdict: Verdict) -> None:
        self.j, self.spec, self.drawn, self.verdict = judge, spec, drawn, verdict
        self.e = verdict.expectation
        self.names = dict(drawn.case.args)
        self.call_text = describe_call(spec.api, self.names)

    # -- recording -----------------------------------------------------------------------------
    def record(self, clause: str, kind: str, ok: bool, message: str = "", **details: Any) -> None:
        self.verdict.checks.append(Check(clause, kind, "pass" if ok else "fail"))
        if not ok:
            self.verdict.findings.append(Finding(
                self.spec.api, self.j.product, clause, kind, f"{message} [{self.call_text}]",
                details=details))

    def owner(self, check: str) -> str:
        return self.spec.owner(check, self.names)

    # -- calling -------------------------------------------------------------------------------
    def fresh(self) -> Materialized:
        if self.drawn.data_file:
            return materialize_saved(self.drawn, self.j.specs)
        return materialize(self.drawn.case, self.j.specs, self.drawn.seed, self.drawn.regime)

    def call(self, m: Materialized) -> CallResult | None:
        try:
            return call_checked(self.j.backend, self.spec.api, m.case.args)
        except Exception as exc:  # noqa: BLE001 - a backend's failure is a finding, not our crash
            kind = getattr(exc, "kind", "crash")  # isolated.py: crash or timeout of the worker
            what = str(exc) if hasattr(exc, "kind") else f"raised {type(exc).__name__}: {exc}"
            # a case that breaks a clause failed that clause's promise of a status code
            clause = self.e.violations[0].clause if self.e.violations else self.owner("status")
            trace = getattr(exc, "trace", None) or (None if hasattr(exc, "kind") else traceback.format_exc())
            extra = {"traceback": trace} if trace else {}
            self.record(clause, kind, False, f"backend {self.j.name!r} {what}", **extra)
            return None

    def go(self, families: tuple[str, ...]) -> None:
        m = self.fresh()
        self.verdict.materialized = m
        judged = "numerics" in families and self.e.expected == "success"
        golden = self.golden(m) if judged else None
        result = self.call(m)
        if result is None:
            return
        if "status" in families:
            self.status(result, m)
        if "memory" in families:
            self.memory(result, m)
        if judged and result.status == 0 and golden is not None:
            self.numerics(m, golden)
        elif judged and result.status == 0:
            self.no_reference()
        if "determinism" in families and self.e.expected == "success" and result.status == 0:
            self.determinism(m)

    def golden(self, m: Materialized) -> dict[str, Any] | None:
        """The expected outputs of the case, or None where nothing can judge them."""
        fn = self.j.golden_of(self.spec)
        try:
            return fn(m.case.args, bounds=True) if fn is not None else None
        except GoldenUnavailable:
            return None

    # -- the checks ----------------------------------------------------------------------------
    def status(self, result: CallResult, m: Materialized) -> None:
        vocab = self.j.specs.vocabulary
        got = describe_status(result.status, vocab, result.phase)
        if self.e.expected == "unspecified":
            behaviour = self.observe(result, m)
            self.verdict.observations += [(v.clause, behaviour) for v in self.e.unspecified]
            self.verdict.checks += [Check(v.clause, "unspecified", "observed") for v in self.e.unspecified]
        elif self.e.expected == "success":
            # a valid case rejected: the clause promising this case in particular (RP-EMPTY, a
            # dtype clause) unless the error came from phase 2, which breaks the phase clause
            specific = result.status == 0 or result.phase in (None, PHASE_WORKSPACE)
            self.record(self.spec.owner("status", self.names, specific), "status", result.status == 0,
                        f"returned {got}, but should be 0 (success)", status=result.status)
        elif result.status not in self.e.status:
            want = " or ".join(describe_status(s, vocab) for s in self.e.status)
            clause = self.e.violations[0].clause
            self.record(clause, "status", False,
                        f"returned {got}, but should be {want} because {self.e.reason}",
                        status=result.status)
        elif result.phase not in (None, PHASE_WORKSPACE):
            self.record(self.spec.owner("status", self.names, specific=False), "status", False,
                        f"returned {got}, but should be from phase {PHASE_WORKSPACE} (parameter "
                        f"checks belong to GetWorkspaceSize)", status=result.status, phase=result.phase)
        else:
            self.verdict.checks += [Check(v.clause, "status", "pass") for v in self.e.violations]

    def observe(self, result: CallResult, m: Materialized) -> str:
        """What the backend did on an unspecified case, in words (status, and values if accepted)."""
        if result.status != 0:
            return f"rejected with {describe_status(result.status, self.j.specs.vocabulary)}"
        try:
            goldens = self.golden(replica(m))
            if goldens is None:
                return "accepted (no reference to compare with)"
            # (an undocumented output dtype, such as INT8, has no precision bound either)
            worst = max((self.verdict_of(m, n, g).worst_ratio for n, g in goldens.items()), default=0.0)
        except Exception as exc:  # noqa: BLE001 - the reference may not define undocumented inputs
            return f"accepted (the reference cannot compute it: {type(exc).__name__})"
        return "accepted, matches the reference" if worst <= 1 else "accepted, differs from the reference"

    def verdict_of(self, m: Materialized, name: str, golden: Any) -> Any:
        out = flat_arg(m.case.args, name)  # an output, or one element of an output list (out[1])
        assert isinstance(out, Tensor)
        p = self.spec.precision
        compute = None
        if p.get("compute") == "inputs":  # documented: computed in the inputs' dtype, then cast
            inputs = [t for _, n, t in flat_tensors(m.case.args) if self.spec.params[n].role in READ]
            compute = bound_dtype(out.array.dtype, [t.array.dtype for t in inputs if isinstance(t, Tensor)])
        return judge_numerics(out.array, golden, out.array.dtype, compute_dtype=compute, c=p.get("c", 1.0),
                              extra_terms=p.get("extra_terms", 0), name=name,
                              rescaled=self.rescaled(m, name, golden))

    def rescaled(self, m: Materialized, name: str, golden: Any) -> Any:
        """The golden with every term scaled by precision.SCALE (exactly: the outputs are linear
        in ``precision.linear_in``), only where a sum may have overflowed: see precision.judge."""
        linear_in = self.spec.precision.get("linear_in")
        value, abs_sum = np.asarray(golden.value), np.asarray(golden.abs_sum)
        if linear_in is None or (np.isfinite(value).all() and np.isfinite(abs_sum).all()
                                 and (abs_sum.size == 0 or abs_sum.max() <= np.finfo(np.float32).max)):
            return None
        source = m.case.args[linear_in]
        up = np.complex128 if source.array.dtype.kind == "c" else np.float64
        scaled = {**m.case.args, linear_in: source.array.astype(up) * SCALE}
        return self.j.golden_of(self.spec)(scaled, bounds=True)[name]

    def numerics(self, m: Materialized, goldens: dict[str, Any]) -> None:
        for name, golden in goldens.items():
            v = self.verdict_of(m, name, golden)
            if v.judged:
                self.verdict.ratios.append((m.metas[name].dtype, v.worst_ratio))
            data = f"; data: seed {self.drawn.seed}, {self.drawn.regime} values"
            ok = v.cann_ok if self.j.standard == "cann" else v.ok
            out = flat_arg(m.case.args, name).array.dtype
            message = cann_message(v, out, m.metas[name].dtype) if self.j.standard == "cann" else v.message
            self.record(self.owner("numerics"), "numerics", ok, message + data,
                        numerics=v.to_json())

    def no_reference(self) -> None:
        """A valid case accepted, but nothing to judge its values by: one unjudged check per output."""
        for _ in self.spec.tensor_params(WRITTEN):
            self.verdict.checks.append(Check(self.owner("numerics"), "numerics", NO_REFERENCE))

    def determinism(self, first: Materialized) -> None:
        second = replica(first)  # the same bytes as the first call got, not drawn again
        result = self.call(second)
        if result is None:
            return
        if result.status != 0:
            self.record(self.owner("determinism"), "determinism", False,
                        f"the second identical call returned "
                        f"{describe_status(result.status, self.j.specs.vocabulary)}, but should be 0")
            return
        outputs = set(self.spec.tensor_params(WRITTEN))
        for name, param, a in flat_tensors(first.case.args):
            b = flat_arg(second.case.args, name)
            if param not in outputs or b is None:  # (flat_tensors leaves out an optional output left out)
                continue
            same = same_bits(a.array, b.array)
            diff = 0 if same else int((a.array.view(np.uint8) != b.array.view(np.uint8)).sum())
            self.record(self.owner("determinism"), "determinism", same,
                        f"two identical calls gave {name} differing in {diff} bytes, but should be "
                        "bit-identical")

    def memory(self, result: CallResult, m: Materialized) -> None:
        changed = changed_inputs(m, self.spec)
        self.record(self.owner("inputs-unchanged"), "inputs-unchanged", not changed,
                    f"{', '.join(changed)} changed by the call, but inputs should be left byte-identical")
        if self.e.expected == "success" and result.status == 0:
            stray = out_of_bounds_writes(m, self.spec)
            text = ", ".join(f"{n}: {k} element(s)" for n, k in stray.items())
            self.record(self.owner("out-of-bounds-write"), "out-of-bounds-write", not stray,
                        f"wrote outside the output view ({text}), but should write only the view")
        elif self.e.expected == "error" and result.status != 0:
            touched = touched_outputs(m, self.spec)
            self.record(self.owner("output-untouched-on-error"), "output-untouched-on-error",
                        not touched, f"{', '.join(touched)} written by a call that returned "
                        f"{result.status}, but should be left untouched on error")

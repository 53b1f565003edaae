"""The check families on single cases: what the judge records for good and bad backends."""
from __future__ import annotations

from helpers import kl_case, rp_case, t

from conformance.backends.protocol import CallResult
from conformance.backends.reference import ReferenceBackend
from conformance.check.judge import Judge
from conformance.generate.strategies import Drawn


class _Fixed:
    """Returns one status from one phase and writes nothing."""

    name = "fixed"
    product = None

    def __init__(self, status: int, phase: int | None = None) -> None:
        self.status, self.phase = status, phase

    def call(self, api, args):
        return CallResult(self.status, self.phase)


class _Raises:
    name = "raises"

    def call(self, api, args):
        raise RuntimeError("device lost")


def _judge(backend, case, families=("status", "numerics", "determinism", "memory"), specs=None):
    from conformance.generate.dry_run import shipped_specs

    specs = specs or shipped_specs()
    return Judge(backend, specs, case.product).judge(Drawn(case, seed=3), families)


def test_reference_passes_every_family(specs):
    v = _judge(ReferenceBackend(product="atlas-a2"), rp_case(dtype="FLOAT16"))
    assert v.findings == []
    kinds = {(c.clause, c.kind, c.outcome) for c in v.checks}
    assert kinds == {("RP-PHASE", "status", "pass"), ("RP-VALUES", "numerics", "pass"),
                     ("RP-DETERMINISTIC", "determinism", "pass"), ("RP-VALUES", "inputs-unchanged", "pass"),
                     ("RP-VALUES", "out-of-bounds-write", "pass")}


def test_valid_case_rejected_is_a_status_finding_on_the_phase_clause(specs):
    v = _judge(_Fixed(161002, 1), kl_case(), ("status",))
    [f] = v.findings
    assert (f.clause, f.kind) == ("KL-PHASE", "status")
    assert f.message.startswith("returned 161002 (ACLNN_ERR_PARAM_INVALID) from phase 1, but should be "
                                "0 (success) [aclnnKlDivBackward(gradOutput=FLOAT[2,3,4]")


def test_empty_case_speaks_for_the_empty_clause(specs):
    v = _judge(_Fixed(161002, 1), kl_case(self_shape=(0, 3)), ("status",))
    assert [(f.clause, f.kind) for f in v.findings] == [("KL-EMPTY", "status")]


def test_wrong_code_goes_to_the_broken_clause(specs):
    v = _judge(_Fixed(161002, 1), rp_case(self=None), ("status",))
    [f] = v.findings
    assert (f.clause, f.kind) == ("RP-NULL", "status")
    assert "should be 161001 (ACLNN_ERR_PARAM_NULLPTR) because RP-NULL: self is a null pointer" in f.message


def test_right_code_from_the_wrong_phase(specs):
    v = _judge(_Fixed(161001, 2), rp_case(self=None), ("status",))
    [f] = v.findings
    assert (f.clause, f.kind) == ("RP-PHASE", "status") and "from phase 2" in f.message
    assert _judge(_Fixed(161001, 1), rp_case(self=None), ("status",)).findings == []
    assert _judge(_Fixed(161001, None), rp_case(self=None), ("status",)).findings == []


def test_unspecified_is_observed_never_failed(specs):
    v = _judge(_Fixed(161002, 1), kl_case(reduction=7), ("status",))
    assert v.findings == []
    assert v.observations == [("KL-REDUCTION", "rejected with 161002 (ACLNN_ERR_PARAM_INVALID)")]
    v = _judge(ReferenceBackend(product="atlas-a2"),
               rp_case(gradOutput=t((2, 3, 7, 8, 9), strides=(3024, 1008, 144, 18, 2))), ("status",))
    assert v.observations == [("RP-NONCONTIGUOUS", "accepted, matches the reference")]


def test_untouched_output_is_numerics_failure_with_the_sentinel(specs):
    v = _judge(_Fixed(0, 2), rp_case(), ("numerics",))
    [f] = v.findings
    assert (f.clause, f.kind) == ("RP-VALUES", "numerics")
    assert "=nan, but should be" in f.message and f.details["numerics"]["ok"] is False


def test_backend_exception_is_a_crash_finding(specs):
    v = _judge(_Raises(), kl_case(), ("status",))
    [f] = v.findings
    assert f.kind == "crash" and "backend 'raises' raised RuntimeError: device lost" in f.message

"""Whose precision standard: --precision strict (the derived bound, the default) or cann (CANN's
single-benchmark MERE/MARE thresholds decide; the bound's figures are still reported)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from helpers import KL, RP, command, kl_case

import conformance
from conformance.backends.protocol import CallResult
from conformance.check.judge import Judge
from conformance.errors import UsageError
from conformance.generate.strategies import Drawn
from conformance.report.waivers import Waiver, apply_waivers

MUTANTS = Path(__file__).with_name("mutants.py")
KW = dict(profile="quick", ops=[RP], isolate=False, keyword="FLOAT16 and numerics and not BFLOAT16")


@pytest.mark.slow
def test_the_standard_is_recorded_and_waivers_name_theirs(tmp_path):
    cann = conformance.run_suite("reference", report_dir=tmp_path / "cann", precision="cann",
                                 profile="quick", ops=[KL], keyword="boundary")
    assert cann["precision"] == "cann" and cann["outcome"] == "conformant"
    assert 'id="meta-precision">cann' in (tmp_path / "cann" / "report.html").read_text()
    assert "precision `cann`" in (tmp_path / "cann" / "summary.md").read_text()
    with pytest.raises(UsageError, match=r"other options \(precision 'cann'\)"):
        command("run", "--profile", "quick", "--op", KL, "-k", "boundary", "--report-dir",
                str(tmp_path / "cann"), "--resume")
    strict = conformance.run_suite(f"{MUTANTS}:HalfAccumulation", report_dir=tmp_path / "strict", **KW)
    assert strict["precision"] == "strict" and strict["outcome"] == "nonconformant"
    granted = dict(reason="fp16 accumulation", expires=dt.date(2099, 1, 1))
    today = dt.date(2026, 12, 3)
    assert apply_waivers(strict, [Waiver("RP-VALUES", precision="cann", **granted)], today)["outcome"] \
        == "nonconformant"  # granted under cann: waives nothing under strict
    assert apply_waivers(strict, [Waiver("RP-VALUES", precision="strict", **granted)], today)["outcome"] \
        == "conformant"


def test_an_unknown_standard_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit):  # argparse: exit 2 naming the choices
        command("run", "--precision", "loose", "--report-dir", str(tmp_path))
    with pytest.raises(UsageError, match="--precision loose: unknown"):
        conformance.run_suite("reference", precision="loose", report_dir=tmp_path)


class ExpWithError:
    """KL with logTarget: out = -exp(t)*g, exp carrying ``ulps`` units in the last place of FLOAT."""

    name = "exp-with-error"
    product = "atlas-a2"

    def __init__(self, ulps: float) -> None:
        self.ulps = ulps

    def call(self, api, args):
        t = args["target"].array.astype(np.float64)
        g = args["gradOutput"].array.astype(np.float64)
        exp = np.exp(t).astype(np.float32)
        exp = exp * (1 + self.ulps * 2.0**-23)  # the ulp of FLOAT is 2^-23 relative, or finer
        args["out"].array[...] = (-exp.astype(np.float64) * g).astype(np.float32)
        return CallResult(0, 2)


def _verdict(specs, ulps: float, standard: str) -> bool:
    case = kl_case((64, 64), log_target=True)
    verdict = Judge(ExpWithError(ulps), specs, "atlas-a2", standard).judge(Drawn(case, seed=3), ("numerics",))
    return not verdict.findings


def test_the_strict_bound_allows_exp_3_ulp_and_cann_about_1000(specs):
    """The ulp allowance of a transcendental: the KL spec's strict bound (c = 1, extra_terms = 3,
    safety 2) accepts an exp 3 ulp of FLOAT off and rejects 4; CANN's FLOAT thresholds (MERE <
    2^-13) accept about 1000 ulp on every element. The README and the KL spec quote these."""
    assert [_verdict(specs, u, "strict") for u in (1, 2, 3, 4, 8)] == [True, True, True, False, False]
    assert _verdict(specs, 64, "cann") and not _verdict(specs, 64, "strict")
    assert _verdict(specs, 1000, "cann") and not _verdict(specs, 2048, "cann")
    assert ml_dtypes.finfo(np.float32).eps == 2.0**-23

"""The suite through the aclnn backend against the C test double: the correct build is conformant,
each bug build (tests/aclnn_double, -DBUG_...) is caught with the right check kind and clause,
and a build that segfaults costs one case, which replays as STILL FAILING."""
from __future__ import annotations

import ctypes
import json

import numpy as np
import pytest
from aclnn_double.build import double_lib
from helpers import KL, RP

import conformance
from conformance.backends.aclnn_abi import Abi, int64s
from conformance.cli.main import main

pytestmark = pytest.mark.slow  # end-to-end runs: deselect with -m 'not slow'


def run_cli(spec, report_dir, *extra):
    code = main(["run", "--backend", spec, "--profile", "quick", "--report-dir", str(report_dir), "-q",
                 *extra])
    return code, json.loads((report_dir / "report.json").read_text())


@pytest.mark.parametrize("soc,product", [(None, "atlas-a2"), ("Ascend910ProA", "atlas-training")])
def test_correct_build_is_conformant(tmp_path_factory, tmp_path, monkeypatch, capsys, soc, product):
    lib = double_lib(tmp_path_factory)
    if soc:
        monkeypatch.setenv("FAKE_ACLNN_SOC", soc)
    # The two seed operators: the double's others are run per product in test_aclnn_double_more.
    code, report = run_cli(f"aclnn:lib={lib}", tmp_path, "--op", RP, "--op", KL)
    assert code == 0, capsys.readouterr().out
    assert report["outcome"] == "conformant" and not report["findings"] and not report["errors"]
    assert report["products"] == [product] and report["backend"]["name"] == "aclnn"
    assert set(report["apis"]) == {RP, KL}
    cases = {api: sum(r["cases"] for r in report["results"] if r["api"] == api) for api in (RP, KL)}
    assert all(n > 0 for n in cases.values()), cases
    behaviours = {(o["clause"], o["behaviour"]) for o in report["observations"]}
    assert ("KL-REDUCTION", "rejected with 161002 (ACLNN_ERR_PARAM_INVALID)") in behaviours
    assert ("RP-PAD-NEGATIVE", "accepted, matches the reference") in behaviours  # crops like it


KL_VIEWS = {("numerics", "KL-NONCONTIGUOUS")}  # a KL numerics bug may also show on a view case

BUGS = [
    pytest.param("BUG_PAD_LIMIT", RP, {("status", "RP-PAD-LIMIT")}, set(), id="pad-limit"),
    # KL's null check is the same one-line switch (FAKE_NULL_STATUS): one operator is enough.
    pytest.param("BUG_NULL_CODE", RP, {("status", "RP-NULL")}, set(), id="null-code"),
    pytest.param("BUG_OOB_WRITE", KL, {("out-of-bounds-write", "KL-VALUES")}, set(), id="oob-write"),
    pytest.param("BUG_PHASE2", RP, {("status", "RP-PHASE")}, set(), id="phase2"),
    pytest.param("BUG_BATCHMEAN", KL, {("numerics", "KL-VALUES")}, KL_VIEWS, id="batchmean"),
]


@pytest.mark.parametrize("define,api,expected,also", BUGS)
def test_bug_build_is_caught(tmp_path_factory, tmp_path, define, api, expected, also):
    lib = double_lib(tmp_path_factory, define)
    report = conformance.run_suite(f"aclnn:lib={lib}", profile="quick", ops=[api], report_dir=tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant" and not report["errors"], report["errors"]
    assert found & expected, f"{define}: findings {sorted(found)}, but should include {sorted(expected)}"
    assert found <= expected | also, f"{define}: unexpected findings {sorted(found - expected - also)}"


def test_segfaulting_build_costs_one_case_and_replays(tmp_path_factory, tmp_path, capsys):
    spec = f"aclnn:lib={double_lib(tmp_path_factory, 'BUG_SEGV_SHAPE')}"
    code, report = run_cli(spec, tmp_path, "--op", RP)
    assert code == 1 and not report["errors"]
    crashes = [f for f in report["findings"] if f["kind"] == "crash"]
    assert crashes and len(crashes) == len(report["findings"]), report["findings"]
    # the worked example (FLOAT); a drawn case of that shape in another dtype would crash too
    assert {f["details"]["case"]["self"].split("[")[1] for f in crashes} == {"1,1,2,2,2]"}
    assert all("killed by SIGSEGV" in f["message"] for f in crashes)
    failing = {(r["clause"], r["kind"]) for r in report["results"] if r["outcome"] == "fail"}
    assert failing == {("RP-PHASE", "crash")}  # every other result of the operator passes
    capsys.readouterr()
    assert main(["replay", crashes[0]["case_file"], "--backend", spec]) == 1
    assert "STILL FAILING: crash RP-PHASE: backend 'aclnn' crashed" in capsys.readouterr().out


def test_phase_two_refuses_a_small_workspace(tmp_path_factory):
    """The double's own contract: phase 1 plans a real workspace, phase 2 checks it."""
    abi = Abi([str(double_lib(tmp_path_factory))])
    assert abi.fn["aclInit"](None) in (0, 100002)
    abi.check("aclrtSetDevice", 0)
    buffers, tensors = [], []
    for _ in range(4):  # gradOutput, self, target, out: FLOAT (2, 2)
        ptr = ctypes.c_void_p()
        abi.check("aclrtMalloc", ctypes.byref(ptr), 16, 0)
        buffers.append(ptr)
        tensors.append(abi.fn["aclCreateTensor"](int64s([2, 2]), 2, 0, int64s([2, 1]), 0, 2,
                                                 int64s([4]), 1, ptr))
    assert all(tensors)
    workspace_fn, execute_fn = abi.operator(conformance.shipped_specs().operator(KL))
    size, executor = ctypes.c_uint64(), ctypes.c_void_p()
    assert workspace_fn(tensors[0], tensors[1], tensors[2], 0, False, tensors[3], ctypes.byref(size),
                        ctypes.byref(executor)) == 0
    assert size.value == 4 * 8  # one double per self element
    assert execute_fn(buffers[0], size.value - 1, executor, None) == 161002
    host = np.zeros(4, np.float32)  # a host pointer is not device memory: memcpy refuses it
    assert abi.fn["aclrtMemcpy"](host.ctypes.data, 16, host.ctypes.data, 16, 1) != 0
    for t in tensors:
        abi.fn["aclDestroyTensor"](t)
    for b in buffers:
        abi.check("aclrtFree", b)

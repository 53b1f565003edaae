"""The C test double's later operators (tests/aclnn_double/replication_pad.c: aclnnReplicationPad1d
and 2dBackward; mse_loss.c: aclnnMseLossBackward; smooth_l1.c: aclnnSmoothL1LossBackward, whose
beta is the backend's float attribute) through the aclnn backend: their worked examples
and product lines by direct calls, then end to end as tests/test_aclnn_double.py does for the first
two: the correct build is conformant on each product line, each bug build is caught with the right
check kind and clause, and a library without one operator's symbols runs every other operator, the
missing one a not-run row."""
from __future__ import annotations

import ctypes
import json

import ml_dtypes
import numpy as np
import pytest
from aclnn_double.build import double_lib
from helpers import KL, RP

import conformance
from conformance.backends.aclnn import AclnnBackend
from conformance.backends.aclnn_abi import C_TYPES
from conformance.backends.protocol import CallResult
from conformance.cases.tensor import Tensor
from conformance.cli.main import main

RP1 = "aclnnReplicationPad1dBackward"
RP2 = "aclnnReplicationPad2dBackward"
MSE = "aclnnMseLossBackward"
SL1 = "aclnnSmoothL1LossBackward"
NEW = (RP1, RP2, MSE, SL1)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return str(double_lib(tmp_path_factory))


@pytest.fixture
def backend(lib):
    instance = AclnnBackend(lib=[lib])
    yield instance
    instance.close()


def pad_args(grad_shape, self_shape, padding, dtype=np.float32, name=None, grad=None):
    g = np.ones(grad_shape, dtype) if grad is None else np.asarray(grad, dtype)
    return {"gradOutput": Tensor(g, dtype_name=name),
            "self": Tensor(np.zeros(self_shape, dtype), dtype_name=name), "padding": padding,
            "gradInput": Tensor(np.full(self_shape, np.nan, dtype), dtype_name=name)}


def mse_args(grad, self_, target, reduction, out_shape, out_dtype=np.float32, in_dtype=np.float32,
             in_name=None, out_name=None):
    def tensor(v):
        return Tensor(np.asarray(v, in_dtype), dtype_name=in_name)
    return {"gradOutput": tensor(grad), "self": tensor(self_), "target": tensor(target),
            "reduction": reduction, "out": Tensor(np.full(out_shape, np.nan, out_dtype), dtype_name=out_name)}


def test_the_pages_examples(backend):
    args = pad_args((1, 5), (1, 3), [1, 1])  # RP1D's 功能说明: [[1,1,1,1,1]], padding [1,1] -> [[2,1,2]]
    assert backend.call(RP1, args) == CallResult(0, 2)
    assert args["gradInput"].array.tolist() == [[2, 1, 2]]
    args = pad_args((1, 1, 7), (1, 1, 5), [1, 1, 0, 0])  # RP2D's: [[[2,1,1,1,2]]]
    assert backend.call(RP2, args) == CallResult(0, 2)
    assert args["gradInput"].array.tolist() == [[[2, 1, 1, 1, 2]]]
    # mean where target broadcasts self larger: 2·g·(s − t) / self.numel() = 3, not numel(B) = 6
    args = mse_args([1.5], [[1, 2, 3]], [[0], [1]], 1, (2, 3))
    assert backend.call(MSE, args) == CallResult(0, 2)
    assert args["out"].array.tolist() == [[1, 2, 3], [0, 1, 2]]


def test_padding_sums_by_position_and_crops(backend):
    grad = np.arange(1, 10, dtype=np.float64).reshape(1, 3, 3)  # H 2 + 0 + 1, W 1 + 2 + 0
    args = pad_args((1, 3, 3), (1, 2, 2), [1, 0, 0, 1], np.float64, grad=grad)
    assert backend.call(RP2, args) == CallResult(0, 2)
    # rows 1-2 fold onto row 1 (bottom padding), columns 0-1 onto column 0 (left padding)
    assert args["gradInput"].array.tolist() == [[[1 + 2, 3], [4 + 5 + 7 + 8, 6 + 9]]]
    args = pad_args((2, 3), (2, 4), [-1, 0], np.float64, grad=[[1, 2, 3], [4, 5, 6]])  # crops position 0
    assert backend.call(RP1, args) == CallResult(0, 2)
    assert args["gradInput"].array.tolist() == [[0, 1, 2, 3], [0, 4, 5, 6]]
    args = pad_args((1, 5), (1, 3), [1, 1], np.complex64, grad=[[1j, 2, 3, 4, 5 - 1j]])
    assert backend.call(RP1, args) == CallResult(0, 2)
    assert args["gradInput"].array.tolist() == [[2 + 1j, 3, 9 - 1j]]


def test_mse_out_of_another_dtype_is_rounded_once(backend):
    # FLOAT16 inputs, FLOAT out (the spec's third example): 2·g·(s − t) exact in double, then FLOAT
    args = mse_args(np.full((2, 2, 3), 0.1), [1, 2, 3], [[0.5], [0.25]], 2, (2, 2, 3), in_dtype=np.float16)
    assert backend.call(MSE, args) == CallResult(0, 2)
    g, s, t = (np.float64(np.float16(v)) for v in (0.1, 1, 0.5))
    assert args["out"].array[0, 0, 0] == np.float32(g * (s - t) * 2)
    # BFLOAT16 out of FLOAT inputs: 2 + 2^-7 + 2^-22 lies just above the half-way point between
    # BFLOAT16's 2 and 2 + 2^-6, so it rounds up
    args = mse_args([1.0], [1 + 2**-8 + 2**-23], [0.0], 0, (1,), ml_dtypes.bfloat16, out_name="BFLOAT16")
    assert backend.call(MSE, args) == CallResult(0, 2)
    assert float(args["out"].array[0]) == 2 + 2**-6


def sl1_args(grad, self_, target, reduction, beta, out_shape, self_dtype=np.float32):
    return {"gradOut": Tensor(np.asarray(grad, np.float32)), "self": Tensor(np.asarray(self_, self_dtype)),
            "target": Tensor(np.asarray(target, np.float32)), "reduction": reduction, "beta": beta,
            "gradInput": Tensor(np.full(out_shape, np.nan, np.float32))}


def test_smooth_l1_examples(backend):
    # the sample program's call: self 0..7, target and gradOut ones, beta 1: d/1 inside (-1, 1)
    args = sl1_args(np.ones((4, 2)), np.arange(8).reshape(4, 2), np.ones((4, 2)), 0, 1.0, (4, 2))
    assert backend.call(SL1, args) == CallResult(0, 2)
    assert args["gradInput"].array.tolist() == [[-1, 0], [1, 1], [1, 1], [1, 1]]
    # beta 0, sum: pure L1, sign(d) and 0 where self == target; gradOut 3 scales it
    args = sl1_args([3.0], [[0, 1, 2], [2, 2, 2]], [1, 1, 2], 2, 0.0, (2, 3))
    assert backend.call(SL1, args) == CallResult(0, 2)
    assert args["gradInput"].array.tolist() == [[-3, 0, 0], [3, 3, 0]]
    # mean where target broadcasts self larger: divided by numel(broadcast(self, target)) = 6;
    # FLOAT16 self with FLOAT target and gradInput (promotion); |-0.25| < beta 0.5: slope -0.5
    args = sl1_args([1.0], [[0, 1, 2]], [[1], [0.25]], 1, 0.5, (2, 3), np.float16)
    assert backend.call(SL1, args) == CallResult(0, 2)
    want = np.array([[-1, 0, 1], [-0.5, 1, 1]], np.float64) / 6
    assert args["gradInput"].array.tolist() == want.astype(np.float32).tolist()


def test_a_float_attribute_is_passed_as_a_c_float(backend):
    assert C_TYPES["float"] is ctypes.c_float
    workspace_fn = backend.ops[SL1][1]
    assert workspace_fn.argtypes[4] is ctypes.c_float  # gradOut, self, target, reduction, beta
    results = []
    for beta in (0.25, 0.5, 1e30):  # d = 0.375: linear, then quadratic d / beta
        args = sl1_args([4.0], [0.5], [0.125], 0, beta, (1,))
        assert backend.call(SL1, args) == CallResult(0, 2)
        results.append(float(args["gradInput"].array[0]))
    assert results == [4.0, 3.0, float(np.float32(4 * 0.375 / np.float64(np.float32(1e30))))]


@pytest.mark.parametrize("api,args", [
    (RP1, pad_args((1, 5), (1, 3), [1, 1, 0])),  # RP1D-PAD-LEN
    (RP1, pad_args((1, 9), (1, 3), [3, 3])),  # RP1D-PAD-LIMIT (unspecified: rejected here)
    (RP1, pad_args((1, 1, 1, 5), (1, 1, 1, 3), [1, 1])),  # RP1D-RANK: 2-3 dims
    (RP1, pad_args((2, 0, 5), (2, 0, 3), [1, 1])),  # RP1D-EMPTY: C of a 3-D self is 0
    (RP2, pad_args((1, 9, 17), (1, 9, 9), [8, 0, 0, 0], ml_dtypes.bfloat16, "BFLOAT16")),  # RP2D-PAD-BF16
    (RP2, pad_args((1, 4, 6), (1, 3, 4), [1, 1, 0, 0])),  # RP2D-SHAPE-OUT: H not padded to 4
    (MSE, mse_args([1.0], [1.0], [1.0], 3, (1,))),  # MSE-REDUCTION
    (MSE, mse_args([1.0, 2.0], [1.0, 2.0, 3.0], [1.0], 0, (3,))),  # MSE-BCAST
    (MSE, mse_args([1.0], [1.0], [1.0], 0, (1,), np.float64)),  # MSE-DTYPE-OUT (unspecified: rejected)
    (MSE, mse_args(np.ones([1] * 9), [1.0], [1.0], 0, [1] * 9)),  # MSE-RANK
    (SL1, sl1_args(1.0, [1.0], [1.0], 0, 1.0, (1,))),  # SL1-ZERO-DIM (unspecified: rejected here)
    (SL1, sl1_args([1.0], [1.0], [1.0], 3, 1.0, (1,))),  # SL1-REDUCTION
], ids=["pad-len", "pad-limit-1d", "rank-4", "empty-c", "pad-bf16", "shape-out", "reduction", "bcast",
        "out-double", "rank-9", "sl1-0d", "sl1-reduction"])
def test_invalid_calls_are_161002_from_phase_one_and_leave_out_alone(backend, api, args):
    assert backend.call(api, args) == CallResult(161002, 1)
    out = args["out" if api == MSE else "gradInput"].array
    assert np.isnan(out.astype(np.float64)).all()


def test_bfloat16_padding_of_eight_is_refused_only_for_bfloat16(backend):
    assert backend.call(RP2, pad_args((1, 9, 17), (1, 9, 9), [8, 0, 0, 0])) == CallResult(0, 2)


@pytest.mark.parametrize("null", ["gradOutput", "self", "target", "out"])
def test_mse_null_argument_is_161001(backend, null):
    args = mse_args([1.0], [1.0], [1.0], 0, (1,))
    assert backend.call(MSE, {**args, null: None}) == CallResult(161001, 1)


@pytest.mark.parametrize("soc,supported", [
    ("Ascend910B3", set(NEW)), ("Ascend910_9391", set(NEW)),
    ("Ascend910ProA", {RP1, RP2, SL1}),  # MSE: Atlas training is not supported
    ("Ascend310P3", set(NEW)), ("Ascend950PR", set(NEW)),
    ("Ascend310B1", set())])  # Atlas 200I/500 A2: none of the three
def test_product_lines_from_the_soc(backend, monkeypatch, soc, supported):
    """Every supported line takes BFLOAT16 (one dtype list on these pages, unlike the 3-D one);
    an unsupported line is 361001 from phase 1."""
    monkeypatch.setenv("FAKE_ACLNN_SOC", soc)
    bf = ml_dtypes.bfloat16
    calls = {RP1: pad_args((1, 5), (1, 3), [1, 1], bf, "BFLOAT16"),
             RP2: pad_args((1, 1, 7), (1, 1, 5), [1, 1, 0, 0], bf, "BFLOAT16"),
             MSE: mse_args([1.0], [3.0], [1.0], 0, (1,), bf, bf, "BFLOAT16", "BFLOAT16"),
             SL1: sl1_args([1.0], [3.0], [1.0], 0, 1.0, (1,))}
    for api, args in calls.items():
        assert backend.call(api, args) == (CallResult(0, 2) if api in supported else CallResult(361001, 1))
    mse_out = calls[MSE]["out"].array.astype(np.float64)
    assert mse_out.tolist() == [4.0] if MSE in supported else np.isnan(mse_out).all()  # 2·1·(3 − 1)
    rp_out = calls[RP1]["gradInput"].array.astype(np.float64)
    assert rp_out.tolist() == [[2, 1, 2]] if RP1 in supported else np.isnan(rp_out).all()


def test_unknown_soc_is_an_inner_error(backend, monkeypatch):
    monkeypatch.setenv("FAKE_ACLNN_SOC", "Ascend999X")
    assert backend.call(RP1, pad_args((1, 5), (1, 3), [1, 1])) == CallResult(561000, 1)


def test_the_bf16_bug_is_product_dependent(tmp_path_factory, monkeypatch):
    """BUG_RP1D_BF16 applies the 3-D page's product note: BFLOAT16 is refused on Atlas training
    and inference only."""
    backend = AclnnBackend(lib=str(double_lib(tmp_path_factory, "BUG_RP1D_BF16")))
    bf = ml_dtypes.bfloat16
    for soc, status in [("Ascend910B3", 0), ("Ascend950PR", 0), ("Ascend910ProA", 161002),
                        ("Ascend310P3", 161002)]:
        monkeypatch.setenv("FAKE_ACLNN_SOC", soc)
        assert backend.call(RP1, pad_args((1, 5), (1, 3), [1, 1], bf, "BFLOAT16")).status == status, soc
        assert backend.call(RP1, pad_args((1, 5), (1, 3), [1, 1])).status == 0, soc
    backend.close()


# -- end to end ------------------------------------------------------------------------------------

def run_cli(spec, report_dir, *extra):
    code = main(["run", "--backend", spec, "--profile", "quick", "--report-dir", str(report_dir), "-q",
                 *extra])
    return code, json.loads((report_dir / "report.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("soc,product,ops", [
    (None, "atlas-a2", NEW), ("Ascend910ProA", "atlas-training", (RP1, RP2, SL1)),
    ("Ascend310P3", "atlas-inference", NEW), ("Ascend950PR", "ascend-950", NEW)])
def test_correct_build_is_conformant(tmp_path_factory, tmp_path, monkeypatch, capsys, soc, product, ops):
    lib = double_lib(tmp_path_factory)
    if soc:
        monkeypatch.setenv("FAKE_ACLNN_SOC", soc)
    code, report = run_cli(f"aclnn:lib={lib}", tmp_path, *(a for op in ops for a in ("--op", op)))
    assert code == 0, capsys.readouterr().out
    assert report["outcome"] == "conformant" and not report["findings"] and not report["errors"]
    assert report["products"] == [product]
    cases = {api: sum(r["cases"] for r in report["results"] if r["api"] == api) for api in ops}
    assert all(n > 100 for n in cases.values()), cases
    assert all(r["outcome"] in ("pass", "unspecified") for r in report["results"])
    behaviours = {(o["clause"], o["behaviour"]) for o in report["observations"]}
    assert ("RP1D-PAD-LIMIT", "rejected with 161002 (ACLNN_ERR_PARAM_INVALID)") in behaviours
    assert ("RP2D-PAD-NEGATIVE", "accepted, matches the reference") in behaviours  # crops like it
    if MSE in ops:
        assert ("MSE-ZERO-DIM", "accepted, matches the reference") in behaviours
        assert ("MSE-DTYPE-OUT", "rejected with 161002 (ACLNN_ERR_PARAM_INVALID)") in behaviours
    assert ("SL1-BETA", "accepted, matches the reference") in behaviours  # negative beta: sign(d)
    bf16 = [r for r in report["results"] if r["api"] == RP1 and r["clause"] == "RP1D-DTYPE"]
    assert bf16 and all(r["outcome"] == "pass" and r["cases"] > 0 for r in bf16)  # BFLOAT16 accepted


BUGS = [
    # BFLOAT16 refused on training: an empty (valid) BFLOAT16 case is RP1D-EMPTY's promise
    pytest.param("BUG_RP1D_BF16", "Ascend910ProA", RP1, {("status", "RP1D-DTYPE")},
                 {("status", "RP1D-EMPTY")}, id="rp1d-bf16"),
    pytest.param("BUG_MSE_MEAN", None, MSE, {("numerics", "MSE-VALUES")}, {("numerics", "MSE-NONCONTIGUOUS")},
                 id="mse-mean"),
    # out of another listed dtype refused: BFLOAT16 inputs are MSE-DTYPE's promise
    pytest.param("BUG_MSE_OUT_SAME", None, MSE, {("status", "MSE-DTYPE-OUT")}, {("status", "MSE-DTYPE")},
                 id="mse-out-same"),
    pytest.param("BUG_SL1_MEAN_SELF", None, SL1, {("numerics", "SL1-VALUES")},
                 {("numerics", "SL1-NONCONTIGUOUS")}, id="sl1-mean-self"),
]


@pytest.mark.slow
@pytest.mark.parametrize("define,soc,api,expected,also", BUGS)
def test_bug_build_is_caught(tmp_path_factory, tmp_path, monkeypatch, define, soc, api, expected, also):
    lib = double_lib(tmp_path_factory, define)
    if soc:
        monkeypatch.setenv("FAKE_ACLNN_SOC", soc)
    report = conformance.run_suite(f"aclnn:lib={lib}", profile="quick", ops=[api], report_dir=tmp_path)
    found = {(f["kind"], f["clause"]) for f in report["findings"]}
    assert report["outcome"] == "nonconformant" and not report["errors"], report["errors"]
    assert found & expected, f"{define}: findings {sorted(found)}, but should include {sorted(expected)}"
    assert found <= expected | also, f"{define}: unexpected findings {sorted(found - expected - also)}"


@pytest.mark.slow
def test_a_library_without_an_operator_runs_the_others(tmp_path_factory, tmp_path, capsys):
    """No --op: every operator the library exports runs, the one whose .c was left out is a
    not-run row naming the missing symbol (as are the specs' operators the double never had)."""
    lib = double_lib(tmp_path_factory, without=("mse_loss.c",))
    # few examples: which operators run is the point here; their conformance is the tests' above
    code, report = run_cli(f"aclnn:lib={lib}", tmp_path, "--max-examples", "4")
    out = capsys.readouterr().out
    assert code == 0, out
    assert report["outcome"] == "conformant" and not report["findings"] and not report["errors"]
    assert MSE in report["apis"]
    rows = {r["api"]: r for r in report["results"] if r["outcome"] == "not-run"}
    assert rows[MSE]["product"] == "atlas-a2" and rows[MSE]["cases"] == 0
    assert rows[MSE]["reason"].startswith(f"symbol {MSE}GetWorkspaceSize not found in {lib}")
    ran = {r["api"] for r in report["results"] if r["outcome"] != "not-run"}
    assert ran == {RP, KL, RP1, RP2, SL1}
    assert all(sum(r["cases"] for r in report["results"] if r["api"] == api) > 20 for api in ran)
    assert not ran & set(rows)
    assert f"{MSE}" in out and "not implement" in out

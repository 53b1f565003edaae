"""The aclnn backend against the C test double (tests/aclnn_double): how a case is mapped onto the
C ABI, where the product comes from, and how bad libraries and backend specs are reported."""
from __future__ import annotations

import json
import re

import ml_dtypes
import numpy as np
import pytest
from aclnn_double.build import build_double, compiler, double_lib
from helpers import KL, RP
from requirements import missing

from conformance.backends import aclnn_abi
from conformance.backends.aclnn import AclnnBackend
from conformance.backends.loading import load_backend
from conformance.backends.protocol import CallResult
from conformance.cases.tensor import Tensor
from conformance.cli.main import main
from conformance.errors import UsageError
from conformance.generate.dry_run import shipped_specs
from conformance.run.config import backend_for, resolve


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return str(double_lib(tmp_path_factory))


@pytest.fixture
def backend(lib):
    instance = AclnnBackend(lib=[lib])
    yield instance
    instance.close()


def kl_args(out, data=((2, 3), (5, 8)), **override):
    a = np.array(data, np.float32)
    args = {"gradOutput": Tensor(a.copy()), "self": Tensor(a.copy()), "target": Tensor(a.copy()),
            "reduction": 0, "logTarget": False, "out": out}
    return {**args, **override}


def rp_args(padding=(1,) * 6, **override):
    args = {"gradOutput": Tensor(np.ones((1, 1, 4, 4, 4), np.float32)),
            "self": Tensor(np.zeros((1, 1, 2, 2, 2), np.float32)), "padding": padding,
            "gradInput": Tensor(np.full((1, 1, 2, 2, 2), np.nan, np.float32))}
    return {**args, **override}


def test_worked_examples(backend):
    out = Tensor(np.full((2, 2), np.nan, np.float32))
    assert backend.call(KL, kl_args(out)) == CallResult(0, 2)
    assert out.array.tolist() == [[-4, -9], [-25, -64]]
    args = rp_args()
    assert backend.call(RP, args) == CallResult(0, 2)
    assert np.array_equal(args["gradInput"].array, np.full((1, 1, 2, 2, 2), 8, np.float32))


def test_strided_output_view_leaves_the_gaps(backend):
    storage = np.full(20, np.nan, np.float32)
    view = np.lib.stride_tricks.as_strided(storage[3:], (2, 2), (16, 8))  # offset 3, strides (4, 2)
    assert backend.call(KL, kl_args(Tensor(view, storage))) == CallResult(0, 2)
    assert view.tolist() == [[-4, -9], [-25, -64]]
    written = {3, 5, 7, 9}
    assert np.isnan(np.delete(storage, sorted(written))).all(), storage


def test_strided_and_offset_inputs(backend):
    grad_storage = np.arange(40, dtype=np.float32)
    grad = np.lib.stride_tricks.as_strided(grad_storage[5:], (2, 2), (4 * 8, 4 * 3))  # (8, 3) elements
    out = Tensor(np.full((2, 2), np.nan, np.float32))
    args = kl_args(out, gradOutput=Tensor(grad, grad_storage))
    assert backend.call(KL, args).status == 0
    target = np.array([[2, 3], [5, 8]], np.float32)
    assert np.array_equal(out.array, -target * grad)
    assert np.array_equal(grad_storage, np.arange(40, dtype=np.float32))  # inputs come back unchanged


@pytest.mark.parametrize("null", ["gradOutput", "self", "padding", "gradInput"])
def test_null_argument_is_161001_from_phase_one(backend, null):
    args = rp_args(**{null: None})
    assert backend.call(RP, args) == CallResult(161001, 1)
    if args["gradInput"] is not None:
        assert np.isnan(args["gradInput"].array).all()  # untouched: the storage came back as sent


def test_padding_at_the_limit_is_invalid_from_phase_one(backend):
    args = rp_args(padding=(2, 0, 0, 0, 0, 0), gradOutput=Tensor(np.ones((1, 1, 2, 2, 4), np.float32)))
    assert backend.call(RP, args) == CallResult(161002, 1)


def test_empty_storage_and_unknown_api(backend):
    empty = np.zeros((0, 3), np.float32)
    out = Tensor(np.zeros((0, 3), np.float32))
    args = {"gradOutput": Tensor(empty), "self": Tensor(empty), "target": Tensor(empty),
            "reduction": 1, "logTarget": True, "out": out}
    assert backend.call(KL, args) == CallResult(0, 2)
    with pytest.raises(ValueError, match="unknown api 'aclnnNoSuchOp'"):
        backend.call("aclnnNoSuchOp", args)


@pytest.mark.parametrize("dtype", ["FLOAT16", "BFLOAT16"])
def test_outputs_are_rounded_once_to_nearest_even(backend, dtype):
    """-(t·g) of FLOAT inputs is exact in double; the double must round it straight to the
    output dtype as numpy / ml_dtypes do from float64 (subnormals and overflow included)."""
    rng = np.random.default_rng(7)
    npt = np.float16 if dtype == "FLOAT16" else ml_dtypes.bfloat16
    exps = rng.uniform(-30, 20, 512) if dtype == "FLOAT16" else rng.uniform(-140, 126, 512)
    t = (rng.standard_normal(512) * 2.0**exps).astype(np.float32)
    g = rng.standard_normal(512).astype(np.float32)
    out = Tensor(np.full(512, np.nan, npt), dtype_name=dtype)
    args = {"gradOutput": Tensor(g), "self": Tensor(np.zeros(512, npt), dtype_name=dtype),
            "target": Tensor(t), "reduction": 0, "logTarget": False, "out": out}
    assert backend.call(KL, args).status == 0
    with np.errstate(over="ignore"):  # overflow to infinity is one of the cases rounded
        want = (-(t.astype(np.float64) * g.astype(np.float64))).astype(npt)
    assert out.array.view(np.uint16).tolist() == want.view(np.uint16).tolist()


@pytest.mark.parametrize("soc,product", [("Ascend910", "atlas-training"), ("Ascend910_93", "atlas-a3"),
                                         ("Ascend310P3", "atlas-inference"), ("Ascend910B4", "atlas-a2")])
def test_product_from_the_soc(lib, monkeypatch, soc, product):
    monkeypatch.setenv("FAKE_ACLNN_SOC", soc)
    backend = AclnnBackend(lib=lib)
    assert (backend.product, backend.soc) == (product, soc)
    assert load_backend(f"aclnn:lib={lib},product=atlas-a2").product == "atlas-a2"  # given wins


def test_inference_soc_has_no_padding_operator(lib, monkeypatch):
    monkeypatch.setenv("FAKE_ACLNN_SOC", "Ascend310P1")
    backend = AclnnBackend(lib=lib)
    assert backend.call(RP, rp_args()) == CallResult(361001, 1)
    backend.close()


@pytest.mark.slow
def test_unknown_soc_needs_product_and_product_overrides_the_soc(lib, monkeypatch):
    monkeypatch.setenv("FAKE_ACLNN_SOC", "Ascend999X")
    assert AclnnBackend(lib=lib).product is None
    with pytest.raises(UsageError, match=r"SoC 'Ascend999X' is in no product line.*pass --product"):
        resolve(shipped_specs(), f"aclnn:lib={lib}", profile="quick")
    cfg, _ = resolve(shipped_specs(), f"aclnn:lib={lib}", ["atlas-a3"], profile="quick")
    assert cfg.products == ("atlas-a3",) and cfg.isolate
    monkeypatch.setenv("FAKE_ACLNN_SOC", "Ascend910B3")  # a known SoC: its product, unless told
    assert resolve(shipped_specs(), f"aclnn:lib={lib}", profile="quick")[0].products == ("atlas-a2",)
    assert resolve(shipped_specs(), f"aclnn:lib={lib}", ["atlas-a3"])[0].products == ("atlas-a3",)
    assert backend_for(f"aclnn:lib={lib}", "atlas-a3").product == "atlas-a3"


def test_library_missing_a_symbol(tmp_path):
    if compiler() is None:
        missing("cc", "no C compiler (cc or gcc)")
    source = tmp_path / "partial.c"
    source.write_text("int aclInit(const char *p) { (void)p; return 0; }\n")
    partial = tmp_path / "libpartial.so"
    import subprocess

    subprocess.run([compiler(), "-shared", "-fPIC", "-o", str(partial), str(source)], check=True)
    with pytest.raises(UsageError, match=f"symbol aclFinalize not found in {partial}"):
        AclnnBackend(lib=str(partial))


@pytest.mark.slow
def test_a_library_with_one_operator_is_tested_on_that_one(tmp_path, capsys):
    """Without --op, the operators whose symbols the library lacks are not-run rows (with the
    missing symbol as the reason), and the one it has is judged."""
    if compiler() is None:
        missing("cc", "no C compiler (cc or gcc)")
    kl_only = build_double(tmp_path / "kl-only", without=("pad3d.c",))
    spec = f"aclnn:lib={kl_only}"
    cfg, _ = resolve(shipped_specs(), spec, profile="quick", ops=[KL, RP])
    assert cfg.planned_apis == [KL] and [a for a, _ in cfg.not_implemented] == [RP]
    assert f"symbol {RP}GetWorkspaceSize not found" in dict(cfg.not_implemented)[RP]
    rc = main(["run", "--backend", spec, "--op", KL, "--op", RP, "--profile", "quick", "--max-examples", "3",
               "--report-dir", str(tmp_path / "r"), "-q"])
    assert rc == 0, capsys.readouterr()
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert {r["api"] for r in report["results"] if r["outcome"] == "not-run"} == {RP}


def test_missing_library_and_missing_cann(tmp_path, monkeypatch):
    with pytest.raises(UsageError, match="aclnn library /nonexistent.so does not exist"):
        AclnnBackend(lib="/nonexistent.so")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "no-cann"))
    monkeypatch.setattr(aclnn_abi, "DEFAULT_ROOT", str(tmp_path / "no-default"))
    with pytest.raises(UsageError, match=r"no CANN installation found: .*no-cann.*aclnn:lib=PATH"):
        AclnnBackend()


def test_cli_reports_a_bad_library_in_one_line(tmp_path, capsys):
    argv = ["run", "--backend", "aclnn:lib=/nonexistent.so", "--profile", "quick", "--report-dir",
            str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("conformance: error: --backend aclnn:lib=/nonexistent.so: aclnn library "
                   "/nonexistent.so does not exist")


@pytest.mark.parametrize("spec,needle", [
    ("aclnn:lib=X.so,bogus=1", "AclnnBackend has no option 'bogus' (options: lib, product, device)"),
    ("aclnn:lib=X.so,product=a,product=b", "option 'product' is given more than once"),
    ("aclnn:lib=X.so,device=first", "option device=first is not an integer"),
    ("reference:colour=red", "ReferenceBackend has no option 'colour' (options: product)")])
def test_bad_backend_options(spec, needle):
    with pytest.raises(UsageError, match=re.escape(needle)):
        load_backend(spec)


def test_options_reach_the_constructor(lib):
    backend = load_backend(f"aclnn:lib={lib},lib={lib},device=1")
    assert (backend.abi.paths, backend.device) == ([lib, lib], 1)
    assert load_backend("reference:product=atlas-training").product == "atlas-training"


def test_a_bool_array_reaches_the_library_as_aclCreateBoolArray(backend):
    import ctypes

    from conformance.backends.aclnn import _Resources
    from conformance.spec.model import Param

    class BoolArray(ctypes.Structure):  # the double's aclBoolArray (tests/aclnn_double/fake_acl.h)
        _fields_ = [("values", ctypes.POINTER(ctypes.c_bool)), ("size", ctypes.c_uint64)]

    mask = Param("outputMask", "bool_array", "attr")
    with _Resources(backend.abi, shipped_specs().vocabulary) as res:
        handle = res.argument(mask, (True, False, True))
        array = ctypes.cast(handle, ctypes.POINTER(BoolArray)).contents
        assert [array.values[i] for i in range(array.size)] == [True, False, True]
        assert res.argument(mask, None) is None  # a null pointer stays null
        assert res.bool_arrays == [handle]  # (released, aclDestroyBoolArray, on exit)
    assert aclnn_abi.NEEDS["bool_array"] == ("aclCreateBoolArray", "aclDestroyBoolArray")

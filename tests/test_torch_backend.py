"""The torch backend: the documents' worked examples, agreement with the reference, and its guards."""
from __future__ import annotations

import pytest
from requirements import import_or_skip  # noqa: E402

torch = import_or_skip("torch")

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

from conformance.backends.protocol import CallResult  # noqa: E402
from conformance.backends.reference import ReferenceBackend  # noqa: E402
from conformance.backends.torch_backend import TorchBackend  # noqa: E402
from conformance.cases.tensor import Tensor  # noqa: E402

RP = "aclnnReplicationPad3dBackward"
KL = "aclnnKlDivBackward"
BF16 = np.dtype(ml_dtypes.bfloat16)
NULLPTR, INVALID, OK = CallResult(161001, 1), CallResult(161002, 1), CallResult(0, 2)
TOLERANCE = {np.dtype(np.float32): (1e-5, 1e-6), np.dtype(np.complex64): (1e-5, 1e-6),
             np.dtype(np.float64): (1e-12, 1e-12), np.dtype(np.complex128): (1e-12, 1e-12),
             np.dtype(np.float16): (2e-2, 1e-2), BF16: (2e-2, 1e-2)}


@pytest.fixture(scope="module")
def backend() -> TorchBackend:
    return TorchBackend()


@pytest.fixture(scope="module")
def reference() -> ReferenceBackend:
    return ReferenceBackend(product="atlas-a2")


def data(rng: np.random.Generator, shape: tuple[int, ...], dtype) -> np.ndarray:
    values = rng.uniform(-2, 2, shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.uniform(-2, 2, shape)
    return values.astype(dtype)


def nan_output(shape: tuple[int, ...], dtype) -> Tensor:
    return Tensor(np.full(shape, np.nan, dtype))


def pad_args(grad: np.ndarray, self_shape: tuple[int, ...], padding) -> dict:
    return {"gradOutput": Tensor(grad), "self": Tensor(np.zeros(self_shape, grad.dtype)),
            "padding": padding, "gradInput": nan_output(self_shape, grad.dtype)}


def kl_args(grad, self_, target, reduction: int, log_target: bool) -> dict:
    return {"gradOutput": Tensor(grad), "self": Tensor(self_), "target": Tensor(target),
            "reduction": reduction, "logTarget": log_target, "out": nan_output(self_.shape, self_.dtype)}


def assert_agree(backend, reference, api: str, make_args, out_name: str) -> None:
    """Both backends succeed on fresh arguments and their outputs agree at the dtype's tolerance."""
    ours, theirs = make_args(), make_args()
    assert reference.call(api, theirs) == OK, f"reference rejected a case meant valid [{api}]"
    assert backend.call(api, ours) == OK
    actual, golden = ours[out_name].array, theirs[out_name].array
    rtol, atol = TOLERANCE[actual.dtype]
    wide = np.complex128 if actual.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(actual.astype(wide), golden.astype(wide), rtol=rtol, atol=atol)


# The worked examples of CONTRACT.md

def test_pad_worked_example(backend):
    args = pad_args(np.ones((1, 1, 4, 4, 4), np.float32), (1, 1, 2, 2, 2), (1,) * 6)
    assert backend.call(RP, args) == OK
    np.testing.assert_array_equal(args["gradInput"].array, np.full((1, 1, 2, 2, 2), 8, np.float32))


def test_kl_worked_example(backend):
    x = np.array([[2, 3], [5, 8]], np.float32)
    args = kl_args(x, x.copy(), x.copy(), 0, False)
    assert backend.call(KL, args) == OK
    np.testing.assert_array_equal(args["out"].array, [[-4, -9], [-25, -64]])


# Agreement with the reference on valid cases

PAD_DTYPES = [np.float32, np.float16, BF16, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("seed", range(20))
def test_pad_agrees_with_reference(backend, reference, seed):
    rng = np.random.default_rng(seed)
    dtype = PAD_DTYPES[seed % len(PAD_DTYPES)]
    self_shape = tuple(int(n) for n in rng.integers(1, 4, 4 + seed % 2))
    d, h, w = self_shape[-3:]
    padding = tuple(int(rng.integers(0, n)) for n in (w, w, h, h, d, d))  # each < its dim
    left, right, top, bottom, front, back = padding
    grad_shape = self_shape[:-3] + (d + front + back, h + top + bottom, w + left + right)
    strided = seed % 4 == 3  # gradOutput as every other element of a larger buffer
    base = data(rng, grad_shape[:-1] + (2 * grad_shape[-1],), dtype)
    grad = base[..., ::2] if strided else base[..., : grad_shape[-1]].copy()
    assert_agree(backend, reference, RP, lambda: pad_args(grad, self_shape, padding), "gradInput")


def kl_shapes(rng: np.random.Generator, reduction: int):
    """(self, target, gradOutput) shapes: self and target broadcast to B; gradOutput fits B."""
    full = tuple(int(n) for n in rng.integers(2, 5, int(rng.integers(1, 4))))
    self_shape = tuple(1 if rng.random() < 0.25 else n for n in full)
    if reduction == 3:  # torch divides by self.size(0), the document by B[0]: keep them equal
        self_shape = full[:1] + self_shape[1:]
    target_shape = tuple(1 if rng.random() < 0.25 else n for n in full)
    if reduction == 0:
        grad_shape = tuple(1 if rng.random() < 0.25 else n for n in full)
    else:  # autograd takes one gradient value for a scalar loss
        grad_shape = (1,) * int(rng.integers(1, len(full) + 1))
    return self_shape, target_shape, grad_shape


KL_DTYPES = [np.float32, np.float16, BF16]


@pytest.mark.parametrize("seed", range(24))
def test_kl_agrees_with_reference(backend, reference, seed):
    rng = np.random.default_rng(100 + seed)
    reduction, log_target = seed % 4, bool(seed // 4 % 2)
    dtype = KL_DTYPES[seed // 8 % len(KL_DTYPES)]
    self_shape, target_shape, grad_shape = kl_shapes(rng, reduction)
    self_ = data(rng, self_shape, dtype)
    target = data(rng, target_shape, dtype)
    grad = data(rng, grad_shape, dtype)
    if seed % 3 == 0:  # strided views: transposed self and target, reversed gradOutput
        self_ = np.ascontiguousarray(self_.T).T
        target = np.ascontiguousarray(target.T).T
        grad = np.ascontiguousarray(grad[::-1])[::-1]
    assert_agree(backend, reference, KL, lambda: kl_args(grad, self_, target, reduction, log_target),
                 "out")


def test_kl_transposed_views_into_strided_output(backend, reference):
    rng = np.random.default_rng(7)
    self_, target, grad = (data(rng, (3, 4), np.float32).T for _ in range(3))
    storage = np.full(32, np.nan, np.float32)
    out = np.lib.stride_tricks.as_strided(storage[1:], shape=(4, 3), strides=(24, 8))
    args = kl_args(grad, self_, target, 0, True) | {"out": Tensor(out, storage)}
    assert backend.call(KL, args) == OK
    np.testing.assert_allclose(out, -np.exp(target) * grad, rtol=1e-6)
    untouched = np.ones(32, bool)
    untouched[1 + np.add.outer(6 * np.arange(4), 2 * np.arange(3)).ravel()] = False
    assert np.isnan(storage[untouched]).all()


def test_kl_batchmean_divides_by_batch(backend):
    x = np.array([[2, 3], [5, 8], [1, 4]], np.float32)
    args = kl_args(np.ones((1,), np.float32), x.copy(), x.copy(), 3, False)
    assert backend.call(KL, args) == OK
    np.testing.assert_allclose(args["out"].array, -x / 3)  # B[0] = 3; "none" would give -x


# Nulls and guards

@pytest.mark.parametrize("name", ["gradOutput", "self", "padding", "gradInput"])
def test_pad_null(backend, name):
    args = pad_args(np.ones((1, 1, 4, 4, 4), np.float32), (1, 1, 2, 2, 2), (1,) * 6)
    out = args["gradInput"].array
    args[name] = None
    assert backend.call(RP, args) == NULLPTR
    assert np.isnan(out).all()


@pytest.mark.parametrize("name", ["gradOutput", "self", "target", "out"])
def test_kl_null(backend, name):
    x = np.ones((2, 3), np.float32)
    args = kl_args(x, x.copy(), x.copy(), 0, False)
    out = args["out"].array
    args[name] = None
    assert backend.call(KL, args) == NULLPTR
    assert np.isnan(out).all()


@pytest.mark.parametrize("grad_shape", [(1, 1, 4, 4, 4), (2, 2, 4, 4, 4), (3, 4, 4, 4)])
def test_pad_memory_guard_refuses_without_calling_torch(backend, monkeypatch, grad_shape):
    def must_not_run(*args):
        raise AssertionError("torch was called")

    monkeypatch.setattr(torch.ops.aten, "replication_pad3d_backward", must_not_run)
    args = pad_args(np.ones(grad_shape, np.float32), (3, 1, 2, 2, 2), (1,) * 6)
    assert backend.call(RP, args) == INVALID
    assert np.isnan(args["gradInput"].array).all()


def test_pad_result_not_fitting_gradinput_is_invalid(backend):
    args = pad_args(np.ones((1, 1, 4, 4, 4), np.float32), (1, 1, 2, 2, 2), (1,) * 6)
    args["gradInput"] = nan_output((1, 1, 2, 2, 3), np.float32)
    assert backend.call(RP, args) == INVALID


@pytest.mark.parametrize("reduction", [4, -1, 7])
def test_kl_undocumented_reduction_is_invalid(backend, reduction):
    x = np.ones((2, 3), np.float32)
    assert backend.call(KL, kl_args(x, x.copy(), x.copy(), reduction, False)) == INVALID


def test_kl_torch_error_is_invalid(backend):
    x = np.ones((2, 3), np.float32)
    assert backend.call(KL, kl_args(x, x.copy(), np.ones((4, 3), np.float32), 0, False)) == INVALID


# Where torch differs from the documents (pinned, so a change in torch is noticed)

def test_pad_accepts_padding_not_below_dim(backend):
    args = pad_args(np.ones((1, 1, 6, 6, 6), np.float32), (1, 1, 2, 2, 2), (2,) * 6)
    assert backend.call(RP, args) == OK  # RP-PAD-LIMIT says 161002
    np.testing.assert_array_equal(args["gradInput"].array, np.full((1, 1, 2, 2, 2), 27, np.float32))


def test_kl_scalar_reduction_rejects_full_gradoutput(backend):
    x = np.ones((2, 3), np.float32)
    assert backend.call(KL, kl_args(x, x.copy(), x.copy(), 2, False)) == INVALID  # documented valid


def test_kl_batchmean_uses_self_batch_not_broadcast_batch(backend):
    self_, target = np.ones((1, 3), np.float32), np.full((4, 3), 2, np.float32)
    args = kl_args(np.ones((1,), np.float32), self_, target, 3, False)
    assert backend.call(KL, args) == OK
    np.testing.assert_allclose(args["out"].array, np.full((1, 3), -8, np.float32))  # document: -2


def test_negative_padding_crop_reaches_torch():
    from conformance.backends.torch_backend import pad_reads_outside

    assert not pad_reads_outside((1, 1, 4, 4, 3), (1, 1, 4, 4, 4))  # a crop: torch checks it itself
    assert pad_reads_outside((2, 1, 4, 4, 4), (1, 1, 4, 4, 4))      # batch dim: torch would not
    assert pad_reads_outside((1, 4, 4, 4), (1, 1, 4, 4, 4))


def test_spatial_mismatch_is_rejected_by_torch_itself(backend):
    args = pad_args(np.ones((3, 1, 4, 4, 1), np.float32), (3, 1, 2, 2, 2), (1,) * 6)
    assert backend.call(RP, args) == INVALID
    assert np.isnan(args["gradInput"].array).all()

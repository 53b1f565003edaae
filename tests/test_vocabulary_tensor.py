"""Name resolution of dtypes and products, and the metadata of data-carrying tensors."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.cases.case import Case
from conformance.cases.oracle import explain
from conformance.cases.tensor import Tensor, TensorMeta, view_into


@pytest.mark.parametrize("name,canonical", [
    ("FLOAT", "FLOAT"), ("float32", "FLOAT"), ("ACL_FLOAT", "FLOAT"), ("FLOAT32", "FLOAT"),
    ("acl_bf16", "BFLOAT16"), ("bfloat16", "BFLOAT16"), ("DOUBLE", "DOUBLE"), ("float64", "DOUBLE"),
    ("complex64", "COMPLEX64"), ("int16", "INT16"), ("ACL_INT32", "INT32"), ("nope", None)])
def test_dtype_names(specs, name, canonical):
    assert specs.vocabulary.dtype(name) == canonical


def test_numpy_dtypes(specs):
    vocab = specs.vocabulary
    assert vocab.dtypes["BFLOAT16"].numpy == np.dtype(ml_dtypes.bfloat16)
    assert vocab.dtype_of_numpy(np.dtype(np.float16)) == "FLOAT16"
    assert vocab.dtype_of_numpy(np.dtype(ml_dtypes.bfloat16)) == "BFLOAT16"
    assert vocab.dtypes["BFLOAT16"].acl_code == 27 and vocab.dtypes["COMPLEX128"].acl_code == 17


@pytest.mark.parametrize("name,pid", [("Ascend910B", "atlas-a2"), ("ascend910_93", "atlas-a3"),
                                      ("Ascend310P", "atlas-inference"), ("Ascend910", "atlas-training"),
                                      ("atlas-a2", "atlas-a2"), ("Ascend999", None)])
def test_product_aliases(specs, name, pid):
    assert specs.vocabulary.product(name) == pid


def test_tensor_view_metadata():
    storage = np.zeros(100, np.float32)
    meta = TensorMeta((3, 4), "FLOAT", strides=(1, 3), offset=5)
    view = view_into(storage, meta)
    view[...] = np.arange(12).reshape(3, 4)
    tensor = Tensor(view, storage)
    assert (tensor.shape, tensor.element_strides, tensor.offset) == ((3, 4), (1, 3), 5)
    assert tensor.meta("FLOAT") == meta and not meta.contiguous
    assert storage[5 + 1 * 3] == 1.0  # element (0, 1) sits one column stride in
    assert meta.storage_size() == 5 + 2 * 1 + 3 * 3 + 1


def test_explain_accepts_data_tensors(specs):
    a = np.ones((2, 2), np.float32)
    case = Case("aclnnKlDivBackward", "atlas-training",
                {"gradOutput": Tensor(a), "self": Tensor(a.astype(ml_dtypes.bfloat16)), "target": Tensor(a),
                 "reduction": 0, "logTarget": False, "out": Tensor(a.copy())})
    e = explain(case, specs)
    assert e.expected == "error"
    assert {v.clause for v in e.violations} == {"KL-DTYPE", "KL-DTYPE-OUT"}

"""Saved cases replay exactly, in every dtype of the vocabulary (bfloat16 too)."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import command, kl_case

from conformance.cases.materialize import materialize
from conformance.cases.tensor import Tensor
from conformance.check.case_store import load_saved, materialize_saved, save_case
from conformance.check.results import Finding
from conformance.generate.dry_run import shipped_specs
from conformance.generate.strategies import Drawn

DTYPES = list(shipped_specs().vocabulary.dtypes)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_saved_case_replays_bit_for_bit(specs, tmp_path, dtype):
    case = kl_case((2, 3), dtype=dtype)
    drawn = Drawn(case, seed=11, regime="special", origin="test")
    m = materialize(case, specs, drawn.seed, drawn.regime)
    finding = Finding(case.api, case.product, "KL-VALUES", "numerics", "made up")
    path = save_case(tmp_path, f"case-{dtype}", drawn, m, finding, specs)
    loaded, recorded = load_saved(path, specs)
    assert recorded["clause"] == "KL-VALUES" and loaded.data_file
    replayed = materialize_saved(loaded, specs)
    for name in ("gradOutput", "self", "target"):
        want, got = m.case.args[name], replayed.case.args[name]
        assert isinstance(got, Tensor) and got.array.dtype == want.array.dtype
        assert got.array.tobytes() == want.array.tobytes(), name
    assert command("replay", str(path)) == 0  # the reference does not show the made-up finding


def test_an_npz_of_typed_arrays_still_replays(specs, tmp_path):
    case = kl_case((2, 2))
    drawn = Drawn(case, seed=1)
    m = materialize(case, specs, 1)
    finding = Finding(case.api, "atlas-a2", "KL-VALUES", "numerics", "x")
    path = save_case(tmp_path, "old", drawn, m, finding, specs)
    arrays = {n: np.ascontiguousarray(m.case.args[n].array) for n in ("gradOutput", "self", "target")}
    np.savez(path.with_suffix(".npz"), **arrays)  # what earlier versions wrote
    replayed = materialize_saved(load_saved(path, specs)[0], specs)
    assert np.array_equal(replayed.case.args["target"].array, arrays["target"])

"""Isolated backends: a worker that segfaults, aborts or hangs costs one case, never the run."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conformance.backends.isolated import BackendDied, IsolatedBackend
from conformance.backends.reference import ReferenceBackend
from conformance.cases.tensor import Tensor
from conformance.cli.main import main
from conformance.generate.dry_run import shipped_specs
from conformance.run.plan import plan

MISBEHAVING = f"{Path(__file__).with_name('misbehaving.py')}:Misbehaving"
KL = "aclnnKlDivBackward"


def _kl_args(out):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    return {"gradOutput": Tensor(x.copy()), "self": Tensor(x.copy()), "target": Tensor(x.copy()),
            "reduction": 0, "logTarget": True, "out": out}


@pytest.mark.slow
def test_isolated_reference_writes_through_views_like_in_process():
    storage = np.full(20, np.nan, np.float32)
    view = np.lib.stride_tricks.as_strided(storage[3:], (2, 3), (24, 8))
    backend = IsolatedBackend("reference", "atlas-a2", timeout=60)
    try:
        result = backend.call(KL, _kl_args(Tensor(view, storage)))
        assert (backend.name, backend.product, result.status, result.phase) == ("reference", "atlas-a2", 0, 2)
        want = np.full((2, 3), np.nan, np.float32)
        ReferenceBackend(product="atlas-a2").call(KL, _kl_args(Tensor(want)))
        assert np.array_equal(view, want)
        assert np.isnan(storage[:3]).all() and np.isnan(storage[4:9:2]).all()  # gaps left alone
    finally:
        backend.close()


@pytest.mark.slow
def test_a_dead_worker_is_replaced(tmp_path):
    path = tmp_path / "dies.py"
    path.write_text("import os\n\nclass Dies:\n    name = 'dies'\n    calls = 0\n\n"
                    "    def call(self, api, args):\n        os._exit(3)\n")
    backend = IsolatedBackend(f"{path}:Dies", "atlas-a2", timeout=60)
    try:
        with pytest.raises(BackendDied, match="crashed: its worker process exited with code 3"):
            backend.call(KL, _kl_args(Tensor(np.zeros((2, 3), np.float32))))
        with pytest.raises(BackendDied):  # a new worker answers (and dies) again
            backend.call(KL, _kl_args(Tensor(np.zeros((2, 3), np.float32))))
    finally:
        backend.close()


@pytest.mark.slow
def test_run_survives_segfault_abort_and_hang(tmp_path, capsys):
    argv = ["run", "--backend", MISBEHAVING, "--profile", "quick", "--op", KL, "--case-timeout", "3",
            "--report-dir", str(tmp_path)]
    assert main(argv) == 1
    report = json.loads((tmp_path / "report.json").read_text())
    found = sorted((f["kind"], f["details"]["case"]["self"], f["message"].split(" [")[0])
                   for f in report["findings"])
    assert found == [
        ("crash", "FLOAT[1,3]", "backend 'misbehaving' crashed: its worker process was killed by SIGABRT"),
        ("crash", "FLOAT[2,2]", "backend 'misbehaving' crashed: its worker process was killed by SIGSEGV"),
        ("timeout", "FLOAT[2,3]", "backend 'misbehaving' timed out: no answer within the case timeout "
                                  "of 3 s (its worker was killed and replaced)")]
    assert report["errors"] == []
    assert report["stats"]["items"] == len(plan(shipped_specs(), [KL], report["products"]))
    failing = {(r["clause"], r["kind"]) for r in report["results"] if r["outcome"] == "fail"}
    assert failing == {("KL-PHASE", "crash"), ("KL-PHASE", "timeout")}  # everything else is right
    segv = next(f for f in report["findings"] if "SIGSEGV" in f["message"])
    capsys.readouterr()
    assert main(["replay", segv["case_file"], "--backend", MISBEHAVING]) == 1
    assert "STILL FAILING: crash KL-PHASE: backend 'misbehaving' crashed" in capsys.readouterr().out


def test_a_backend_that_crashes_while_loading_is_a_usage_error_not_our_death(tmp_path, capsys):
    path = tmp_path / "dies_on_load.py"
    path.write_text("import ctypes\n\nclass Loads:\n    name = 'loads'\n\n"
                    "    def __init__(self):\n        ctypes.string_at(0)\n\n"
                    "    def call(self, api, args):\n        return 0\n")
    rc = main(["run", "--backend", f"{path}:Loads", "--profile", "quick", "-q",
               "--report-dir", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert rc == 2 and "was killed by SIGSEGV while loading the backend" in err and "Traceback" not in err


@pytest.mark.slow
def test_buffers_travel_through_a_shared_arena_that_grows_and_is_removed(tmp_path):
    big = np.arange(300_000, dtype=np.float32).reshape(600, 500)  # 1.2 MB: past the first arena

    def args(out):
        return {"gradOutput": Tensor(big.copy()), "self": Tensor(big.copy()), "target": Tensor(big.copy()),
                "reduction": 0, "logTarget": False, "out": out}

    shared = IsolatedBackend("reference", "atlas-a2", timeout=60)
    piped = IsolatedBackend("reference", "atlas-a2", timeout=60, shared=False)
    try:
        small = np.full((2, 3), np.nan, np.float32)
        assert shared.call(KL, _kl_args(Tensor(small))).status == 0
        first = shared._arena.path
        via_arena, via_pipe = np.zeros_like(big), np.zeros_like(big)
        assert shared.call(KL, args(Tensor(via_arena))).status == 0
        assert piped.call(KL, args(Tensor(via_pipe))).status == 0
        assert shared._arena.path != first and not Path(first).exists()  # grown: a new file
        assert np.array_equal(via_arena, via_pipe) and via_arena[599, 499] == -(299_999.0 ** 2)
        path = shared._arena.path
    finally:
        shared.close()
        piped.close()
    assert not Path(path).exists()

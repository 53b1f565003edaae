"""Time the golden replication_pad3d_backward against torch CPU and one numpy pass.

Run from the repository root:  PYTHONPATH=. python benchmarks/bench_reference.py [--repeats N]

Targets: reference (bounds=False) <= 0.7x torch's time and <= 5x one np.sum pass over
gradOutput. Every time is the best of ``--repeats`` runs (time.perf_counter).
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from reference import replication_pad3d_backward

SELF_SHAPE = (2, 16, 64, 64, 64)
PAD = 3
SEED = 20240601


def best_of(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def make_data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED)
    out_shape = SELF_SHAPE[:2] + tuple(n + 2 * PAD for n in SELF_SHAPE[2:])
    grad = rng.standard_normal(out_shape, dtype=np.float32)
    return grad, np.zeros(SELF_SHAPE, np.float32)


def torch_runner(grad: np.ndarray, self_: np.ndarray) -> Callable[[], Any] | None:
    try:
        import torch
    except ImportError:
        return None
    grad_t, self_t = torch.from_numpy(grad), torch.from_numpy(self_)
    return lambda: torch.ops.aten.replication_pad3d_backward(grad_t, self_t, [PAD] * 6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs per timing (>= 5)")
    repeats = max(5, parser.parse_args().repeats)
    grad, self_ = make_data()
    args = {"gradOutput": grad, "self": self_, "padding": [PAD] * 6}
    print(f"gradOutput {grad.shape} float32, self {self_.shape}, padding {PAD} on every side, "
          f"best of {repeats}")
    ref_fast = best_of(lambda: replication_pad3d_backward(args, bounds=False), repeats)
    ref_bounds = best_of(lambda: replication_pad3d_backward(args, bounds=True), repeats)
    np_sum = best_of(lambda: np.sum(grad), repeats)
    fresh = best_of(lambda: np.empty(SELF_SHAPE, np.float64).fill(0.0), repeats)
    print(f"reference bounds=False : {ref_fast * 1e3:8.2f} ms")
    print(f"reference bounds=True  : {ref_bounds * 1e3:8.2f} ms")
    print(f"np.sum(gradOutput)     : {np_sum * 1e3:8.2f} ms")
    print(f"fresh float64 gradInput-sized array, filled once: {fresh * 1e3:.2f} ms "
          f"({fresh / np_sum:.2f}x np.sum; a floor for any float64 golden)")
    print(f"reference/np.sum       : {ref_fast / np_sum:8.2f}x  (target <= 5)")
    run_torch = torch_runner(grad, self_)
    if run_torch is None:
        print("torch is absent: no torch comparison")
        return
    torch_time = best_of(run_torch, repeats)
    print(f"torch replication_pad3d_backward: {torch_time * 1e3:8.2f} ms")
    print(f"reference/torch        : {ref_fast / torch_time:8.2f}x  (target <= 0.7)")
    golden = replication_pad3d_backward(args, bounds=False)["gradInput"].value
    diff = np.max(np.abs(golden - run_torch().numpy().astype(np.float64)))
    print(f"max |reference - torch| : {diff:.3e}")


if __name__ == "__main__":
    main()

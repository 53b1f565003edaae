"""What one size-axis case costs, stage by stage, at 1 Mi and 16 Mi elements.

Run from the repository root:  PYTHONPATH=. python benchmarks/bench_large.py [--sizes 1,16]

For each operator, the high end of its ``large`` draws (the largest tensor just under the size in
Mi elements, FLOAT) is timed: making its data (materialize: random values, guard-filled storage,
the snapshot the guards compare with), the reference alone (bounds=False), the reference with
the bound's Σ|terms| and counts, the precision judge, the guards (inputs unchanged, writes outside
the output views), and one whole judged case against the reference backend (every check family:
status, numerics, two calls for determinism, the guards). Best of 3 at 1 Mi, 1 run at 16 Mi.
"""
from __future__ import annotations

import argparse
import math

from bench_reference import best_of  # the same timing as the reference benchmark

from conformance.backends.reference import ReferenceBackend
from conformance.cases.materialize import materialize
from conformance.cases.tensor import TensorMeta
from conformance.check.guards import changed_inputs, out_of_bounds_writes
from conformance.check.judge import Judge
from conformance.check.precision import judge as judge_numerics
from conformance.generate.build import build_case
from conformance.generate.choosers import FixedChooser
from conformance.generate.dry_run import shipped_specs
from conformance.generate.strategies import Drawn
from conformance.spec.reference_loader import reference_function

MI = 1024 * 1024
PRODUCT = "atlas-a2"


def stages(api: str, size: int, repeats: int) -> tuple[int, dict[str, float]]:
    specs = shipped_specs()
    spec = specs.operator(api)
    case = build_case(spec, specs.vocabulary, PRODUCT, "FLOAT", FixedChooser("max"), size_max=size)
    largest = max(math.prod(v.shape) for v in case.args.values() if isinstance(v, TensorMeta))
    golden_fn = reference_function(spec)
    m = materialize(case, specs, 1, "ordinary")
    ReferenceBackend().call(api, m.case.args)
    out = spec.params_of("tensor", "output")[0]
    golden = golden_fn(m.case.args, bounds=True)[out]
    judge = Judge(ReferenceBackend(product=PRODUCT), specs, PRODUCT)
    times = {
        "materialize": best_of(lambda: materialize(case, specs, 1, "ordinary"), repeats),
        "reference": best_of(lambda: golden_fn(m.case.args, bounds=False), repeats),
        "reference+bound": best_of(lambda: golden_fn(m.case.args, bounds=True), repeats),
        "precision judge": best_of(lambda: judge_numerics(m.case.args[out].array, golden,
                                                          m.case.args[out].array.dtype), repeats),
        "guards": best_of(lambda: (changed_inputs(m, spec), out_of_bounds_writes(m, spec)), repeats),
        "whole case": best_of(lambda: judge.judge(Drawn(case, 1, "ordinary")), repeats),
    }
    return largest, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,16", help="sizes in Mi elements (default 1,16)")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    names = ("materialize", "reference", "reference+bound", "precision judge", "guards", "whole case")
    print(f"{'operator':32} {'largest':>10} " + " ".join(f"{n:>16}" for n in names))
    for api in sorted(shipped_specs().operators):
        for size in sizes:
            largest, times = stages(api, size * MI, 3 if size <= 1 else 1)
            print(f"{api:32} {largest:>10} " + " ".join(f"{times[n] * 1000:>13.1f} ms" for n in names))


if __name__ == "__main__":
    main()

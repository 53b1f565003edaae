"""Failing cases as self-contained files: the case-file YAML plus the input data in an ``.npz``.

The YAML is the ``conformance explain`` format with ``seed``, ``regime``, ``data`` and the
``finding`` it showed; ``load_saved`` rebuilds the exact arrays (views, guards and all).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from conformance.cases.case import Case, case_to_dict, load_case
from conformance.cases.materialize import Materialized, materialize, snapshot
from conformance.cases.tensor import Tensor
from conformance.check.results import Finding
from conformance.errors import CaseError
from conformance.generate.strategies import Drawn
from conformance.spec.model import READ, SpecSet
from conformance.spec.values import flat_arg, flat_tensors

CASES_DIR = "cases"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


def case_path(report_dir: Path, name: str) -> Path:
    """Where the case file of finding ``name`` goes (absolute, so replay lines work from anywhere)."""
    return report_dir.resolve() / CASES_DIR / f"{slug(name)}.yaml"


def save_case(report_dir: Path, name: str, drawn: Drawn, m: Materialized | None,
              finding: Finding, specs: SpecSet) -> Path:
    """Write ``<report_dir>/cases/<name>.yaml`` (and ``.npz``) and return the YAML path."""
    path = case_path(report_dir, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = case_to_dict(drawn.case, drawn.case.args)
    doc.update(seed=drawn.seed, regime=drawn.regime)
    if m is not None:
        inputs = specs.operator(drawn.case.api).tensor_params(READ)  # (the data a call reads)
        # raw bytes: numpy cannot read back dtypes it does not know (bfloat16), and the case file
        # names each tensor's dtype anyway; a list's elements are saved as x[0], x[1], ...
        arrays = {flat: _raw(t.array) for flat, name, t in flat_tensors(m.case.args)
                  if isinstance(t, Tensor) and name in inputs}
        np.savez(path.with_suffix(".npz"), **arrays)
        doc["data"] = path.with_suffix(".npz").name
    doc["finding"] = {"clause": finding.clause, "kind": finding.kind, "message": finding.message}
    header = f"# {finding.kind} finding on {finding.clause}; replay: {finding.replay or ''}\n"
    path.write_text(header + yaml.safe_dump(doc, sort_keys=False, width=100, default_flow_style=None))
    return path


def load_saved(path: Path, specs: SpecSet, product: str | None = None) -> tuple[Drawn, dict[str, Any]]:
    """The saved case as a ``Drawn`` plus its recorded finding; data from the ``.npz`` when present."""
    case = load_case(path, specs, product)
    seed, regime = case.extra.get("seed", 0), case.extra.get("regime", "ordinary")
    if not isinstance(seed, int) or not isinstance(regime, str):
        raise CaseError("seed must be an integer and regime a string", file=str(path))
    finding = case.extra.get("finding") or {}
    data = case.extra.get("data")
    drawn = Drawn(Case(case.api, case.product, case.args), seed, regime, origin=f"replay {path.name}")
    if data:
        npz = path.parent / str(data)
        if not npz.is_file():
            raise CaseError(f"the data file {data} is missing", file=str(path), field="data")
        drawn = Drawn(drawn.case, seed, regime, drawn.origin, data_file=str(npz))
    return drawn, finding


def materialize_saved(drawn: Drawn, specs: SpecSet) -> Materialized:
    """Materialise a replayed case, overwriting inputs with the saved arrays."""
    m = materialize(drawn.case, specs, drawn.seed, drawn.regime)
    if drawn.data_file:
        with np.load(drawn.data_file) as saved:
            for name in saved.files:
                value = flat_arg(m.case.args, name)
                if isinstance(value, Tensor):
                    data = _restored(saved[name], value.array)
                    if data is not None:
                        value.array[...] = data
        m.before.update(snapshot(m.case))
    return m


def _raw(array: np.ndarray) -> np.ndarray:
    """The array's bytes in C order, as uint8."""
    return np.frombuffer(np.ascontiguousarray(array).tobytes(), np.uint8)


def _restored(saved: np.ndarray, like: np.ndarray) -> np.ndarray | None:
    """The values ``saved`` holds for a view like ``like``: raw bytes (or a typed array of the
    same shape, as earlier versions saved); None when they do not fit."""
    if saved.dtype == np.uint8 and saved.ndim == 1 and saved.size == like.size * like.itemsize:
        return np.frombuffer(saved.tobytes(), like.dtype).reshape(like.shape)
    return saved if saved.shape == like.shape else None

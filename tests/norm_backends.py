"""Backends of the toy normalization aclnnToyNorm (tests/fixtures/norm_pages, with the rank rows
test_draft_norm_ties.py adds), for that module: one right in its own way (numpy's reductions over
the last len(normShape) axes decide what it refuses, not the spec's expressions) and two wrong ones."""
from __future__ import annotations

import numpy as np

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.backends.reference import OracleBackend
from conformance.cases.case import Case
from conformance.cases.oracle import explain

PARAM_INVALID = 161002
MAX_RANK = 8


def normalized_axes(x_shape: tuple[int, ...], norm: tuple[int, ...]) -> tuple[int, ...] | None:
    """The axes numpy reduces for a normalized shape ``norm`` (the last len(norm) of x), or None
    where numpy has no such axes (the array longer than x's rank)."""
    view = np.broadcast_to(np.zeros((), dtype=bool), x_shape)
    axes = tuple(range(-len(norm), 0))
    try:
        np.mean(view, axis=axes, keepdims=True)  # (a view of one element: nothing is allocated)
    except ValueError:  # (numpy's AxisError)
        return None
    return axes


def _given(args) -> bool:
    return args.get("x") is not None and args.get("normShape") is not None


def _too_long(args) -> bool:
    return normalized_axes(args["x"].array.shape, tuple(args["normShape"])) is None


def _too_deep(args) -> bool:
    """Whether a tensor of the rank row has more than 8 dimensions."""
    return any(args.get(n) is not None and args[n].array.ndim > MAX_RANK
               for n in ("x", "scaleOptional", "avg", "y"))


class NumpyNorm(OracleBackend):
    """Right: refuses a tensor deeper than 8 dimensions and a normShape numpy has no axes for."""

    name = "numpy-norm"

    def call(self, api, args, product=None):
        if _given(args) and (_too_deep(args) or _too_long(args)):
            return CallResult(PARAM_INVALID, PHASE_WORKSPACE)
        return super().call(api, args, product)


def ignoring(right: type[OracleBackend]) -> type[OracleBackend]:
    """A backend class wrong about one row (its ``row``, the clause's quote): where that row is all
    the oracle would refuse a call for, it writes zeros to the outputs and succeeds; ``right``
    elsewhere."""

    class Ignoring(right):  # type: ignore[misc, valid-type]
        row = ""

        def call(self, api, args, product=None):
            spec = self.specs.operator(api)
            e = explain(Case(api, product or spec.products[-1], dict(args)), self.specs)
            if e.expected == "error" and all(spec.constraint(v.clause).source.quote == self.row
                                             for v in e.violations):
                for name in spec.tensor_params("output"):
                    args[name].array[...] = 0
                return CallResult(0, PHASE_EXECUTE)
            return super().call(api, args, product)

    return Ignoring


_Ignoring = ignoring(NumpyNorm)


class LongArrayAccepted(_Ignoring):
    """Wrong: a normShape longer than x's rank is taken as all of x."""

    name = "long-array-accepted"
    row = "x的维度小于normShape的维度"


class DeepRankAccepted(_Ignoring):
    """Wrong: tensors of 9 dimensions or more go through."""

    name = "deep-rank-accepted"
    row = "x、scaleOptional、avg、y的维度大于8"

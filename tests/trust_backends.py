"""Status-only backends for the invented pages of tests/fixtures/trust_pages, condition_pages and
dtype_tie_pages,
written from what the pages say (never from the oracle, the drafted spec or explain): each
operator's checks are its page's error rows, read by hand. An accepted call writes zeros into its
outputs (the drafts have no reference). ``Correct`` follows the pages; each ``Planted*`` class
plants one bug in one check (tests/test_draft_kind_trust.py; GateAlways and SlopeAlways, a
conditional row's body held whatever its condition: tests/test_exemptions.py).

Use as ``tests/trust_backends.py:Correct`` (a class is instantiated without arguments).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.backends.protocol import PHASE_EXECUTE, PHASE_WORKSPACE, CallResult
from conformance.spec.values import Scalar, TensorList

NULLPTR, INVALID, TILING = 161001, 161002, 561002
FLOATS = {"FLOAT", "FLOAT16"}
NUMPY_NAMES = {"float32": "FLOAT", "float16": "FLOAT16", "float64": "DOUBLE", "int64": "INT64",
               "int32": "INT32", "int16": "INT16", "int8": "INT8", "uint8": "UINT8", "bool": "BOOL"}


def dtype(t: Any) -> str:
    """A tensor's aclDataType name (a dtype numpy lacks, such as BFLOAT16, comes named)."""
    return t.dtype_name or NUMPY_NAMES.get(t.array.dtype.name, t.array.dtype.name.upper())


def tensors(*values: Any) -> list[Any]:
    """The tensors of the given arguments, list elements one by one (absent ones left out)."""
    out: list[Any] = []
    for v in values:
        out += list(v) if isinstance(v, TensorList) else [] if v is None else [v]
    return out


def plain(*values: Any, ranks: tuple[int, int], dtypes: set[str]) -> bool:
    """The parameter-table cells of these tensors hold: dtype, ND format, rank range."""
    return all(dtype(t) in dtypes and t.format == "ND" and ranks[0] <= len(t.shape) <= ranks[1]
               for t in tensors(*values))


class Correct:
    """Each page's checks as its rows say; ``bug`` names the one check a subclass gets wrong."""

    name = "trust-correct"
    bug = ""

    def call(self, api: str, args: dict[str, Any]) -> CallResult:
        status = getattr(self, f"_{api}")(args)
        if status:
            return CallResult(status, PHASE_WORKSPACE)
        for t in tensors(*(args[n] for n in OUTPUTS[api])):
            t.array[...] = 0
        return CallResult(0, PHASE_EXECUTE)

    # -- aclnnToyAxisScale: dims (axes of self), dilation two ones, beta nonzero, mode keep/floor
    def _aclnnToyAxisScale(self, a: dict[str, Any]) -> int:
        if any(a[n] is None for n in ("self", "dims", "dilation", "out")):
            return NULLPTR
        x, out, dims = a["self"], a["out"], list(a["dims"])
        if not plain(x, out, ranks=(1, 8), dtypes=FLOATS) or x.shape != out.shape:
            return INVALID
        rank = max(len(x.shape), 1)
        if any(not -rank <= d < rank for d in dims):
            return INVALID
        axes = [self._axis(d, rank) for d in dims]
        if len(set(axes)) != len(axes):
            return INVALID
        read = a["dilation"][:1] if self.bug == "dilation-first" else a["dilation"]
        if len(a["dilation"]) != 2 or any(v < 1 if self.bug == "dilation-above" else v != 1 for v in read):
            return INVALID
        if a["beta"] == 0 and self.bug != "beta-zero":
            return INVALID
        modes = {"keep", "floor"} | ({a["mode"]} if self.bug == "any-mode" else set())
        return 0 if a["mode"] in modes else INVALID

    def _axis(self, d: int, rank: int) -> int:
        # the planted bug counts negative axes from rank + 1, so -1 is not rank - 1
        return d if d >= 0 else d + rank + (1 if self.bug == "axis-wrap" else 0)

    # -- aclnnToyRankGather: self and index of one rank, neither empty, out shaped as index --------
    def _aclnnToyRankGather(self, a: dict[str, Any]) -> int:
        if any(a[n] is None for n in ("self", "index", "out")):
            return NULLPTR
        x, index, out = a["self"], a["index"], a["out"]
        if not (plain(x, out, ranks=(1, 8), dtypes=FLOATS) and plain(index, ranks=(1, 8), dtypes={"INT64"})):
            return INVALID
        if len(x.shape) != len(index.shape) and self.bug != "rank-unchecked":
            return INVALID
        emptiable = (x,) if self.bug == "empty-index" else (x, index)
        if any(0 in t.shape for t in emptiable):
            return INVALID
        return 0 if out.shape == index.shape else INVALID

    # -- aclnnToyForeachNeg: x[i] and out[i] of one dtype; each of x, y of one dtype (tiling) -----
    def _aclnnToyForeachNeg(self, a: dict[str, Any]) -> int:
        if any(a[n] is None or None in a[n] for n in ("x", "y", "out")):
            return NULLPTR
        x, y, out = a["x"], a["y"], a["out"]
        if not plain(x, y, out, ranks=(1, 8), dtypes=FLOATS):
            return INVALID
        if len(x) != len(out) or any(dtype(p) != dtype(q) for p, q in zip(x, out)):
            return INVALID  # position by position: the only reading leaving the tiling row reachable
        if not len(x) == len(y) == len(out) or any(
                p.shape != q.shape or p.shape != r.shape for p, q, r in zip(x, y, out)):
            return INVALID
        lists = (list(x), list(y)[:2] if self.bug == "list-first-two" else list(y))
        return TILING if any(len({dtype(t) for t in e}) > 1 for e in lists) else 0

    # -- aclnnToyGatedScale (tests/fixtures/condition_pages) ----------------------------------------
    def _aclnnToyGatedScale(self, a: dict[str, Any]) -> int:
        x, bias, slope, gated = a["x"], a["biasOptional"], a["slope"], a["gated"]
        if any(a[n] is None for n in ("x", "slope", "out")):
            return NULLPTR
        if (self._when(gated and self.bug != "gate-unchecked" or self.bug == "gate-always")
                and a["gateOut"] is None
                or self._when(a["mode"] == "skip") and a["maskOut"] is None):
            return NULLPTR
        if not plain(x, a["out"], bias, a["gateOut"], a["maskOut"], ranks=(1, 4), dtypes=FLOATS):
            return INVALID
        if not isinstance(slope, Scalar) or slope.dtype != "FLOAT" or a["mode"] not in ("keep", "skip"):
            return INVALID
        if a["out"].shape != x.shape or bias is not None and bias.shape != x.shape:
            return INVALID
        if self._when(not gated or self.bug == "slope-always") and slope.value < 0:
            return INVALID
        if self._when(dtype(x) == "FLOAT16") and a["maskOut"] is None:
            return INVALID
        return 0

    # -- aclnnToyTiedBlend (tests/fixtures/dtype_tie_pages): weight takes x's dtype (its usage note),
    # gateOut too when gated (a conditional row); no pattern reads either sentence
    def _aclnnToyTiedBlend(self, a: dict[str, Any]) -> int:
        x, weight, out, gate = (a[n] for n in ("x", "weight", "out", "gateOut"))
        if any(t is None for t in (x, weight, out, gate)):
            return NULLPTR
        if not plain(x, weight, out, gate, ranks=(1, 4), dtypes=FLOATS) or dtype(out) != dtype(x):
            return INVALID
        if dtype(weight) != dtype(x) or a["gated"] and dtype(gate) != dtype(x):
            return INVALID
        return 0 if all(t.shape == x.shape for t in (weight, out, gate)) else INVALID

    def _when(self, condition: bool) -> bool:
        """A condition of the page; one planted bug holds every body whatever its condition."""
        return True if self.bug == "no-condition" else condition


OUTPUTS: dict[str, tuple[str, ...]] = {
    "aclnnToyAxisScale": ("out",), "aclnnToyRankGather": ("out",), "aclnnToyForeachNeg": ("out",),
    "aclnnToyGatedScale": ("out", "gateOut", "maskOut"), "aclnnToyTiedBlend": ("out", "gateOut")}


def planted(bug: str) -> Callable[[], Correct]:
    return type(f"Planted{bug.title().replace('-', '')}", (Correct,), {"name": f"trust-{bug}", "bug": bug})


AnyMode = planted("any-mode")  # string set: accepts a mode outside {"keep", "floor"}
AxisWrap = planted("axis-wrap")  # duplicate axes: -1 taken as rank, so [-1, rank - 1] passes
DilationAbove = planted("dilation-above")  # single value: accepts any dilation >= 1
DilationFirst = planted("dilation-first")  # single value: checks dilation[0] only
BetaZero = planted("beta-zero")  # nonzero: accepts beta == 0
RankUnchecked = planted("rank-unchecked")  # same rank: never compared
EmptyIndex = planted("empty-index")  # zero dimension: checks self only
ListFirstTwo = planted("list-first-two")  # list same dtype: compares y[0] and y[1] only
NoCondition = planted("no-condition")  # conditions: every body held, its condition ignored
GateUnchecked = planted("gate-unchecked")  # conditions: gateOut may be null whatever gated is
GateAlways = planted("gate-always")  # conditions: gateOut may not be null whatever gated is
SlopeAlways = planted("slope-always")  # conditions: slope may not be negative whatever gated is

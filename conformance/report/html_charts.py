"""The report page's numerics histograms: per (api, dtype), how many cases had their worst
error-to-bound ratio in each log2 bin, as inline-SVG geometry the template draws."""
from __future__ import annotations

from typing import Any

from conformance.check.results import RATIO_BINS
from conformance.report.html_format import slug

EXACT_BIN = RATIO_BINS[0] - 1  # the bin of exact results (ratio 0)
BINS = (EXACT_BIN, *RATIO_BINS)


CHART = {"bar": 16, "gap": 2, "sep": 10, "left": 34, "top": 14, "plot": 90, "bottom": 34}


def _bin_label(b: int) -> str:
    if b == EXACT_BIN:
        return "exact (error 0)"
    if b == RATIO_BINS[0]:
        return f"0 < error/bound < 2^{b + 1}"
    if b == RATIO_BINS[-1]:
        return f"error/bound ≥ 2^{b} (or not finite)"
    return f"2^{b} ≤ error/bound < 2^{b + 1}"


def _tick(b: int) -> str:
    """Axis labels: "exact", every 4th bin, and the last (open) bin."""
    if b == EXACT_BIN:
        return "exact"
    if b == RATIO_BINS[-1]:
        return f"≥{b}"
    return str(b) if b % 4 == 0 and b > RATIO_BINS[0] else ""


def _x(i: int) -> float:
    """Left edge of bar ``i``; the exact bin stands apart from the log2 bins."""
    return CHART["left"] + i * (CHART["bar"] + CHART["gap"]) + (CHART["sep"] if i else 0)


def _geometry(counts: list[int]) -> dict[str, Any]:
    g = CHART
    top = max(counts) or 1
    base = g["top"] + g["plot"]
    bars = []
    for i, (b, n) in enumerate(zip(BINS, counts)):
        h = 0.0 if n == 0 else max(1.5, g["plot"] * n / top)
        bars.append({"bin": b, "n": n, "x": _x(i), "cx": _x(i) + g["bar"] / 2, "w": g["bar"],
                     "h": round(h, 2), "y": round(base - h, 2), "label": _bin_label(b), "tick": _tick(b),
                     "cls": "exact" if b == EXACT_BIN else "over" if b >= 0 else "under"})
    right = _x(len(BINS) - 1) + g["bar"]
    return {"bars": bars, "width": right + 8, "height": base + g["bottom"], "top": top,
            "plot_top": g["top"], "base": base, "left": g["left"], "right": right,
            "bound_x": _x(BINS.index(0)) - g["gap"] / 2}


def _chart(api: str, dtype: str, bins: dict[str, int]) -> dict[str, Any]:
    counts = dict.fromkeys(BINS, 0)
    for key, n in bins.items():
        b = int(key)
        b = b if b in counts else (EXACT_BIN if b < EXACT_BIN else RATIO_BINS[-1])
        counts[b] += int(n)
    total = sum(counts.values())
    over = sum(n for b, n in counts.items() if b >= 0)
    inexact = [b for b, n in counts.items() if n and b != EXACT_BIN]
    worst = max(inexact) if inexact else None
    within = [b for b in inexact if b < 0]
    return {"api": api, "dtype": dtype, "id": slug("numerics", api, dtype), "total": total,
            "exact": counts[EXACT_BIN], "over": over, "worst": worst,
            "worst_label": _bin_label(worst) if worst is not None else "",
            "closest_within": max(within) if within else None, **_geometry(list(counts.values()))}


def numerics_charts(report: dict[str, Any], apis: list[str]) -> list[dict[str, Any]]:
    """Per operator, one chart per dtype (documented order first)."""
    order = {api: list(dict.fromkeys(d for ds in (report.get("dtypes") or {}).get(api, {}).values()
                                     for d in ds)) for api in apis}
    groups = []
    for api in apis:
        entries = [e for e in report.get("numerics") or [] if e["api"] == api]
        known = order.get(api, [])
        entries.sort(key=lambda e: (known.index(e["dtype"]) if e["dtype"] in known else len(known),
                                    e["dtype"]))
        if entries:
            groups.append({"api": api, "charts": [_chart(api, e["dtype"], e["bins"]) for e in entries]})
    return groups

"""The test items of a run: one per (api, product, dtype or clause, check family).

Valid cases are drawn per dtype and judged by one family each; invalid cases are drawn per
clause with a status code (families ``status`` and ``memory``); unspecified clauses get probes
that are observed, never failed; ``boundary`` runs the deterministic first phase.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

from conformance.check.judge import FAMILIES
from conformance.check.results import item_id
from conformance.generate.strategies import breakable
from conformance.generate.violable import violable
from conformance.spec.model import SpecSet

INVALID_FAMILIES = ("status", "memory")
LARGE = "large"  # the family of size-axis items (every check family on each case)


@dataclass(frozen=True)
class Item:
    api: str
    product: str
    subject: str  # a dtype name, a clause id, or "boundary"
    family: str   # status | numerics | determinism | memory | large | all

    @property
    def id(self) -> str:
        return item_id(self.api, self.product, self.subject, self.family)

    def families(self) -> tuple[str, ...]:
        return FAMILIES if self.family in ("all", LARGE) else (self.family,)


def plan(specs: SpecSet, apis: list[str], products: list[str]) -> list[Item]:
    """Every item for ``apis`` on ``products``: boundary items first (they run first), then the
    size-axis items (the costliest: handed out early, they do not leave one xdist worker busy
    while the other idles at the end), then the rest in plan order."""
    items: list[Item] = []
    for api in apis:
        spec = specs.operator(api)
        for product in (p for p in products if spec.applicable(p)):
            if product in spec.products:  # (on a line marked unsupported only product_in breaks)
                items.append(Item(spec.api, product, "boundary", "all"))
            for dtype in spec.test_dtypes(product):
                items += [Item(spec.api, product, dtype, f) for f in FAMILIES]
                if spec.program.large:  # the size axis: every family on cases that span many tiles
                    items.append(Item(spec.api, product, dtype, LARGE))
            for clause in breakable(spec, "error"):
                if violable(specs, spec, clause, product):
                    items += [Item(spec.api, product, clause, f) for f in INVALID_FAMILIES]
            items += [Item(spec.api, product, c, "status") for c in breakable(spec, "unspecified")
                      if violable(specs, spec, c, product)]
    return sorted(items, key=lambda i: (i.subject != "boundary", i.family != LARGE))


def not_applicable(specs: SpecSet, apis: list[str], products: list[str]) -> list[tuple[str, str, str]]:
    """(api, product, reason) for every requested product an operator does not support."""
    out = []
    for api in apis:
        spec = specs.operator(api)
        for product in products:
            if not spec.applicable(product):
                source = spec.unsupported.get(product)
                out.append((spec.api, product, source.quote if source else "not listed"))
    return out


def shard_of(items: list[Item], shard: tuple[int, int] | None) -> list[Item]:
    """The K-th of N parts of the plan, by a hash of each item's id (a position modulo N would put
    every item of one family in the same part). Depends only on the ids, never on timing or -k."""
    if shard is None:
        return items
    k, n = shard
    return [item for item in items if zlib.crc32(item.id.encode()) % n == k - 1]

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
from conformance.spec.model import OperatorSpec, SpecSet

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
                if _violable(specs, spec, clause, product):
                    items += [Item(spec.api, product, clause, f) for f in INVALID_FAMILIES]
            items += [Item(spec.api, product, c, "status") for c in breakable(spec, "unspecified")
                      if _violable(specs, spec, c, product)]
    return sorted(items, key=lambda i: (i.subject != "boundary", i.family != LARGE))


def _violable(specs: SpecSet, spec: OperatorSpec, clause: str, product: str) -> bool:
    """False on a line where no case breaks the clause (spec.break_lines), and for a dtype_in clause
    listing every dtype of the vocabulary on ``product`` (a drafted copy operator): its item would
    be unsatisfiable."""
    c = spec.constraint(clause)
    if product not in spec.break_lines(c):
        return False  # (product_in breaks on the lines marked unsupported, the others elsewhere)
    listed = c.options["per_product"].get(product, []) if c.kind == "dtype_in" else []
    return c.kind != "dtype_in" or any(d not in listed for d in specs.vocabulary.dtypes)


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

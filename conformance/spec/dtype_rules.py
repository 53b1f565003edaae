"""The vendor's dtype promotion tables and cast rules, read from the vocabulary's ``dtype_rules``.

Pages say "self and other must satisfy the promotion rules" or "the promoted dtype must convert to
out's" and point at two shared pages: a promotion table (two inputs of different dtypes are
computed in the dtype at their row and column, or cannot be combined at all) and the cast rules
(which computed dtype may be written to an output of another dtype). The clause kinds
``promotable`` and ``castable`` judge with them (spec/predicates.py).

The two mirrors' cast pages differ (ops-math's allows floats to integers and complex to floats since
2026-07-31, ops-nn's does not), so a cast is ``"yes"`` when every documented rule set allows it,
``"no"`` when none does and ``"disputed"`` otherwise: the documents then promise nothing.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import reduce
from typing import Any

from conformance.errors import SpecError

#: A table cell for "these two dtypes have no promoted dtype" (the pages print a cross).
NONE = "x"


@dataclass(frozen=True)
class CastRule:
    id: str
    allow: dict[str, frozenset[str]]  # category -> categories it may be cast to
    source: dict[str, str]


class DtypeRules:
    """Promotion (``promote``) and casting (``cast``) over vocabulary dtype names."""

    def __init__(self, data: dict[str, Any], known: Collection[str]) -> None:
        short = data["short"]
        self.tables = {name: _table(name, raw, short) for name, raw in data["promotion"].items()}
        self.sources = {name: dict(raw["source"]) for name, raw in data["promotion"].items()}
        self.category = {d: cat for cat, names in data["casts"]["categories"].items() for d in names}
        unknown = sorted(set(self.category) - set(known))
        if unknown:
            raise SpecError(f"dtype_rules.casts.categories names unknown dtypes: {', '.join(unknown)}")
        self.rules = tuple(CastRule(r["id"], {k: frozenset(v) for k, v in r["allow"].items()},
                                    dict(r["source"])) for r in data["casts"]["rules"])
        #: dtypes a table can yield that the vocabulary does not list (COMPLEX32): no tensor has one
        self.foreign = frozenset(short.values()) - set(known)

    def promote(self, a: str, b: str, table: str = "tensor_tensor") -> str | None:
        """The dtype two inputs are computed in (``tensor_scalar``: ``a`` the tensor's dtype, ``b``
        the scalar's); None when the table has no promoted dtype or does not list one of them."""
        return self.tables[table].get((b, a) if table == "tensor_scalar" else (a, b))

    def promote_all(self, dtypes: Iterable[str]) -> str | None:
        """The promoted dtype of several tensors, folded left to right; None if any step has none."""
        def step(acc: str | None, d: str) -> str | None:
            return None if acc is None else self.promote(acc, d)
        items = list(dtypes)
        return reduce(step, items[1:], items[0]) if items else None

    def cast(self, source: str, target: str) -> str:
        """``"yes"``, ``"no"`` or ``"disputed"``: whether a result of dtype ``source`` may be
        written to an output of dtype ``target`` by every cast rule set, by none, or by some."""
        if source == target:
            return "yes"
        verdicts = {self._allows(rule, source, target) for rule in self.rules}
        return "yes" if verdicts == {True} else "no" if verdicts == {False} else "disputed"

    def _allows(self, rule: CastRule, source: str, target: str) -> bool:
        src, dst = self.category.get(source), self.category.get(target)
        return src is not None and dst is not None and dst in rule.allow.get(src, frozenset())

    def describe_rules(self) -> str:
        """The cast pages in one phrase, for messages: ``ops-nn-a04f015, ops-math-5c0bd5c``."""
        return ", ".join(r.id for r in self.rules)


def _table(name: str, raw: dict[str, Any], short: dict[str, str]) -> dict[tuple[str, str], str]:
    """``{(row dtype, column dtype): promoted}``; cells marked NONE are absent."""
    def full(s: str) -> str:
        if s not in short:
            raise SpecError(f"dtype_rules.promotion.{name}: unknown short name {s!r}")
        return short[s]
    columns = [full(c) for c in raw["columns"]]
    out: dict[tuple[str, str], str] = {}
    for row, cells in raw["rows"].items():
        if len(cells) != len(columns):
            raise SpecError(f"dtype_rules.promotion.{name}.rows.{row}: {len(cells)} cells for "
                             f"{len(columns)} columns")
        for col, cell in zip(columns, cells):
            if cell != NONE:
                out[(full(row), col)] = full(cell)
    return out

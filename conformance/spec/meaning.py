"""What an operator spec means, independent of its clause ids and wording: a set of ``Fact``s.

Two specs of one operator (an old and a new documentation release, or a drafted spec and the
hand-written one) are compared fact by fact (spec/compare.py). A fact is keyed by what it is about
(``dtype self @ atlas-a2``, ``rank self max``, ``same_dtype {gradOutput, self}``), so clauses that
say the same thing in other words, under other ids or split differently give the same facts.
Clauses whose meaning is an expression (``expr``, a behaviour clause with its own ``when``, kinds
this module does not know such as ``review``) give no facts: ``unexpressed`` lists them.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from conformance.spec.model import Constraint, OperatorSpec

#: Fact groups in report order.
GROUPS = ("products", "params", "dtypes", "ranks", "formats", "relations", "values", "behaviour")


@dataclass(frozen=True)
class Fact:
    group: str
    key: str
    value: tuple[str, ...]  # compared as written here: sets are sorted
    code: str | None  # the outcome on violation (status name, unspecified, advisory); None: none
    clauses: tuple[str, ...]  # the clause ids it comes from
    note: str = ""  # how it was derived, when not from a clause of its own (not compared)


def facts(spec: OperatorSpec) -> dict[str, Fact]:
    """Every fact of ``spec`` by key."""
    found = [*_products(spec), *_params(spec), *_dtypes(spec), *_ranks(spec), *_formats(spec),
             *_relations(spec), *_values(spec), *_behaviour(spec)]
    return {f.key: f for f in found}


def unexpressed(spec: OperatorSpec) -> list[Constraint]:
    """The clauses whose meaning no fact captures (compared by id only)."""
    return [c for c in spec.constraints if c.kind not in _PREDICATE_KINDS
            and not (c.kind == "behavior" and (c.when is None or _contiguity_params(c)))
            or c.only_if is not None]


# --- one function per family ----------------------------------------------------------------------

def _products(spec: OperatorSpec) -> Iterator[Fact]:
    for p in spec.products:
        yield Fact("products", f"product {p}", ("supported",), None, ())
    for p in spec.unsupported:
        platform = spec.platform_clause(p)  # a call there gets its code (else: not applicable)
        yield Fact("products", f"product {p}", ("not supported",),
                   platform.on_violation if platform else None, (platform.id,) if platform else ())


def _params(spec: OperatorSpec) -> Iterator[Fact]:
    for p in spec.params.values():
        yield Fact("params", f"param {p.name}", (p.kind, p.role), None, ())
        if p.optional:
            yield Fact("params", f"optional {p.name}", ("optional",), None, ())
    for name in spec.params:
        named = _naming(spec, "not_null", name)
        if named:
            yield _merged("params", f"not_null {name}", ("must not be null",), named)


def _dtypes(spec: OperatorSpec) -> Iterator[Fact]:
    """A clause naming several parameters gives each its lists; several clauses on one parameter
    intersect. A tensor with no list of its own but tied by ``same_dtype`` has its partners' lists
    (what generation gives it too): a draft listing them for it says the same."""
    for name in spec.params_of("tensor"):
        own, partners, ties = _naming(spec, "dtype_in", name), _dtype_partners(spec, name), []
        if not own:
            ties = [c for c in spec.constraints if c.ties_dtypes and name in c.params]
            own = [c for c in spec.constraints if c.kind == "dtype_in" and set(c.params) & partners
                   and c.only_if is None]
        if not own:
            continue
        note = f"as {', '.join(sorted(partners))} (same_dtype)" if ties else ""
        for product in spec.products:
            lists = [set(c.options["per_product"].get(product, ())) for c in own]
            allowed = tuple(sorted(set.intersection(*lists)))
            yield _merged("dtypes", f"dtype {name} @ {product}", allowed, ties or own, note,
                          ties + own)


def _ranks(spec: OperatorSpec) -> Iterator[Fact]:
    """``ranks: [4, 5]`` and ``min: 4, max: 5`` say the same; a minimum of 0 says nothing. Of several
    limits on one parameter the tightest holds."""
    for name in spec.params_of("tensor"):
        lows, highs = [], []
        for c in _naming(spec, "rank_in", name):
            ranks = c.options.get("ranks")
            if ranks:
                lows.append((min(ranks), c))
                highs.append((max(ranks), c))
                if len(ranks) != max(ranks) - min(ranks) + 1:
                    yield _merged("ranks", f"rank {name} one of", tuple(map(str, sorted(ranks))), [c])
            if "min" in c.options:
                lows.append((c.options["min"], c))
            if "max" in c.options:
                highs.append((c.options["max"], c))
        lows = [(v, c) for v, c in lows if v > 0]
        if lows:
            yield _tightest("ranks", f"rank {name} min", lows, max)
        if highs:
            yield _tightest("ranks", f"rank {name} max", highs, min)


def _formats(spec: OperatorSpec) -> Iterator[Fact]:
    for name in spec.params_of("tensor"):
        named = _naming(spec, "format_in", name)
        if named:
            allowed = set.intersection(*(set(c.options["formats"]) for c in named))
            yield _merged("formats", f"format {name}", tuple(sorted(allowed)), named)


def _relations(spec: OperatorSpec) -> Iterator[Fact]:
    """same_dtype, same_shape and same_format tie parameters transitively: clauses of one outcome are
    merged into groups (a draft may say with one clause what a hand spec says with two). broadcastable is not
    transitive: one group per clause. ``same: true`` on rank_in is a same_rank group; promotable
    and castable clauses are one fact each (castable's key names its target)."""
    by_key: dict[str, list[Constraint]] = {}
    for kind, clauses in (("same_dtype", [c for c in spec.constraints if c.ties_dtypes
                                          and c.list_tie == "all"]),
                          ("same_dtype by position", [c for c in spec.constraints if c.ties_dtypes
                                                      and c.list_tie == "position"]),
                          ("same_shape", [c for c in spec.constraints if c.kind == "same_shape"]),
                          ("same_format", [c for c in spec.constraints if c.kind == "same_format"])):
        for group in _components(clauses):
            by_key.setdefault(_set_key(kind, *(c.params for c in group)), []).extend(group)
    for c in spec.constraints:  # within each list: one fact per list (each [x, out] is each [x], [out])
        if c.kind == "same_dtype" and c.list_tie == "each":
            for p in c.params:
                by_key.setdefault(_set_key("same_dtype within", [p]), []).append(c)
    for c in spec.constraints:
        if c.kind == "broadcastable" or c.kind == "rank_in" and c.options.get("same"):
            kind = "broadcastable" if c.kind == "broadcastable" else "same_rank"
            by_key.setdefault(_set_key(kind, c.params), []).append(c)
        if c.kind == "promotable":  # the inputs have a promoted dtype (the vendor's table)
            by_key.setdefault(_set_key("promotable", c.params), []).append(c)
        if c.kind == "castable":  # ... which may be cast to to's dtype (a list: their promoted one)
            to = c.options["to_dtype"] or c.options["to"]
            target = to if isinstance(to, str) else _set_key("promoted", to)
            by_key.setdefault(f"{_set_key('castable', c.params)} -> {target}", []).append(c)
    for key, clauses in by_key.items():
        members = tuple(sorted({p for c in clauses for p in c.params}))
        yield _merged("relations", key, members, clauses)


def _values(spec: OperatorSpec) -> Iterator[Fact]:
    for p in spec.params.values():
        if p.values:
            named = tuple(f"{k} {v}" for k, v in sorted(p.values.items()))
            yield Fact("values", f"value names {p.name}", named, None, ())
        clauses = _naming(spec, "value_in", p.name)
        if clauses:
            allowed = set.intersection(*(set(map(_show, c.options["values"])) for c in clauses))
            yield _merged("values", f"values {p.name}", tuple(sorted(allowed, key=_number_first)),
                          clauses)
        for c in _naming(spec, "length", p.name):
            yield _merged("values", f"length {p.name}", (str(c.options["length"]),), [c])
        domain = spec.data.get(p.name)
        clauses = _naming(spec, "data_in", p.name)
        if domain is not None and clauses:
            lo, hi = (b.text if hasattr(b, "text") else _show(b) for b in (domain.lo, domain.hi))
            shown = f"{domain.kind} in {'(' if domain.open else '['}{lo}, {hi}{')' if domain.open else ']'}"
            shown += f" when {domain.when.text}" if domain.when is not None else ""
            yield _merged("values", f"domain {p.name}", (shown,), clauses)


def _behaviour(spec: OperatorSpec) -> Iterator[Fact]:
    """Checks every case gets (determinism among them) and non-contiguous support: a behaviour
    clause whose ``when`` asks for non-contiguous views of some parameters promises they work; a
    ``contiguous`` clause says they need not."""
    checked: dict[str, list[Constraint]] = {}
    for c in spec.constraints:
        if c.kind == "behavior" and c.when is None:
            for check in c.checks:
                checked.setdefault(check, []).append(c)
    for check, clauses in checked.items():
        yield Fact("behaviour", f"checked {check}", ("every case",), None, _ids(clauses))
    for name in spec.params_of("tensor"):
        promised = [c for c in spec.constraints if c.kind == "behavior" and name in _contiguity_params(c)]
        if promised:
            yield Fact("behaviour", f"non-contiguous {name}", ("supported",), None, _ids(promised))
        refused = _naming(spec, "contiguous", name)
        if refused and not promised:
            yield _merged("behaviour", f"non-contiguous {name}", ("not promised",), refused)


# --- helpers --------------------------------------------------------------------------------------

#: The constraint kinds the families above read completely.
_PREDICATE_KINDS = frozenset({"not_null", "dtype_in", "same_dtype", "format_in", "same_format", "rank_in",
                              "same_shape", "length", "broadcastable", "value_in", "contiguous",
                              "data_in", "promotable", "castable", "product_in"})


def _naming(spec: OperatorSpec, kind: str, name: str) -> list[Constraint]:
    """The clauses of ``kind`` naming ``name`` (one holding only under a condition, ``only_if``, is
    no fact: compared by id)."""
    return [c for c in spec.constraints if c.kind == kind and name in c.params and c.only_if is None]


def _ids(clauses: Iterable[Constraint]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c.id for c in clauses))


def _code(clauses: Iterable[Constraint]) -> str:
    """The outcome of the clauses a fact comes from; several different ones are all named."""
    return " | ".join(sorted({str(c.on_violation) for c in clauses}))


def _merged(group: str, key: str, value: tuple[str, ...], clauses: list[Constraint], note: str = "",
            sources: list[Constraint] | None = None) -> Fact:
    """A fact whose outcome is that of ``clauses`` and whose sources are ``sources`` (default: them)."""
    return Fact(group, key, value, _code(clauses), _ids(sources or clauses), note)


def _tightest(group: str, key: str, limits: list[tuple[int, Constraint]],
              pick: Callable[[Iterable[int]], int]) -> Fact:
    best = pick(v for v, _ in limits)
    return _merged(group, key, (str(best),), [c for v, c in limits if v == best],
                   sources=[c for _, c in limits])


def _dtype_partners(spec: OperatorSpec, name: str) -> set[str]:
    for group in spec.dtype_groups():
        if name in group:
            return set(group) - {name}
    return set()


def _components(clauses: list[Constraint]) -> list[list[Constraint]]:
    """Clauses of one outcome sharing a parameter, merged (transitively) into groups."""
    groups: list[list[Constraint]] = []
    for c in clauses:
        tied = [g for g in groups if g[0].on_violation == c.on_violation
                and any(set(c.params) & set(o.params) for o in g)]
        groups = [g for g in groups if g not in tied] + [[o for g in tied for o in g] + [c]]
    return groups


def _set_key(kind: str, *param_lists: Iterable[str]) -> str:
    members = sorted({p for params in param_lists for p in params})
    return f"{kind} {{{', '.join(members)}}}"


def _contiguity_params(c: Constraint) -> set[str]:
    """The parameters whose ``.contiguous`` a behaviour clause's ``when`` reads."""
    if c.when is None:
        return set()
    return {n.value.id for n in ast.walk(c.when.tree) if isinstance(n, ast.Attribute)
            and n.attr == "contiguous" and isinstance(n.value, ast.Name)}


def _show(value: object) -> str:
    """1 and 1.0 are one value (a bound or a listed value read from a page may be either)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _number_first(text: str) -> tuple[int, float, str]:
    try:
        return 0, float(text), text
    except ValueError:
        return 1, 0.0, text

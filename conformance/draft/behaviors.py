"""Behavior clauses of a drafted spec (judged on results, no predicate): non-contiguous tensors
(numerics), phase-1 validation (status), determinism, and what every call promises of memory; and
the ``contiguous`` clauses: tensors the table marks as not supporting non-contiguous views
(unspecified), and those an error row rejects when non-contiguous ("self为非连续张量": its code)."""
from __future__ import annotations

from conformance.draft.context import Clause, Context, Evidence, expressible, source
from conformance.draft.facts import Sentence

#: What the values clause checks: the outputs (numerics, reported "no reference" without one) and
#: the memory promises every aclnn call makes.
VALUE_CHECKS = ["numerics", "inputs-unchanged", "output-untouched-on-error", "out-of-bounds-write"]


def _cell(ctx: Context, name: str, mark: str) -> Sentence:
    return Sentence(f"{name}：非连续Tensor {mark}", ctx.rows[name].where)


def contiguity(ctx: Context, evidence: list[Evidence]) -> list[Clause]:
    """✓ tensors: non-contiguous cases are checked like the others; ✗ tensors: unspecified, unless
    an error row rejects them (its code). A row rejecting a tensor the table marks ✓ contradicts
    the page: no clause, the row is left for review."""
    yes = [n for n in ctx.tensors if n in ctx.rows and ctx.rows[n].noncontiguous is True and expressible(n)]
    coded = [e for e in evidence if e.params and e.status.startswith("ACLNN_")
             and all(n in ctx.tensors and expressible(n) and n not in yes for n in e.params)]
    rejected = {n for e in coded for n in e.params}
    no = [n for n in ctx.tensors
          if n in ctx.rows and ctx.rows[n].noncontiguous is False and n not in rejected]
    clauses = [{"id": ctx.new_id("CONTIGUOUS"), "kind": "contiguous", "params": list(e.params),
                "source": source([e.sentence, *(_cell(ctx, n, "×") for n in e.params
                                                if n in ctx.rows and ctx.rows[n].noncontiguous is False)]),
                "on_violation": e.status, "_evidence": [e]} for e in coded]
    if no:
        clauses.append({"id": ctx.new_id("CONTIGUOUS"), "source": source(_cell(ctx, n, "×") for n in no),
                        "kind": "contiguous", "params": no, "on_violation": "unspecified"})
    if yes:
        dense = " and ".join(f"{n}.contiguous" for n in yes)
        offsets = " + ".join(f"{n}.offset" for n in yes)
        clauses.append({"id": ctx.new_id("NONCONTIGUOUS"), "source": source(_cell(ctx, n, "√") for n in yes),
                        "kind": "behavior", "when": f"not ({dense} and {offsets} == 0)",
                        "checks": ["numerics"]})
    return clauses


def page_behaviors(ctx: Context) -> list[Clause]:
    """Phase-1 validation, determinism and the values/memory clause, each where the page says it."""
    facts = ctx.facts
    clauses = []
    if facts.phase1 is not None and facts.errors:
        clauses.append({"id": ctx.new_id("PHASE"), "source": source([facts.phase1]), "kind": "behavior",
                        "checks": ["status"]})
    if facts.deterministic is not None and not facts.nondeterministic:
        clauses.append({"id": ctx.new_id("DETERMINISM"), "source": source([facts.deterministic]),
                        "kind": "behavior", "checks": ["determinism"]})
    clauses.append({"id": ctx.new_id("VALUES"), "kind": "behavior", "checks": list(VALUE_CHECKS),
                    "source": source([facts.function]) if facts.function is not None else _CONTRACT})
    return clauses


# Where the page has no function sentence to quote, the memory promises are the suite's contract.
_CONTRACT = {"doc": "contract", "quote": "Every aclnn call leaves its inputs unchanged, leaves its outputs "
             "untouched when it fails and writes nothing outside its outputs.",
             "where": "the suite's contract (no sentence of the page)"}

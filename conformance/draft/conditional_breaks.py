"""The ``break`` of a conditional clause (conditions.py): its condition's attributes drawn at the
values making it true (a bool array element by element: the array at its length clause's length,
every other element true as valid cases draw them, the clause requiring that length clause so a
shorter array is never indexed), and its body broken: the tensor that must be given drawn as null,
the tensor that must have another's shape drawn with that shape perturbed (the one in no same_shape
group, if one is; one whose shape was a guess drawn with that shape first), the attribute that must
not be negative drawn negative. A tensor sharing its shape draw with others is given a draw of its
own (an ``expr`` copy of the shared one), so only it changes. A coded clause whose break cannot be
drawn (its tensors drawn apart, its condition and body on one attribute) is left for review. Whether
the break breaks that clause alone, breakable.py checks on the drafted spec.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.draft.context import Clause, Context
from conformance.draft.facts import Review, Sentence
from conformance.draft.shape_draws import Shapes


def resolve(ctx: Context, s: Shapes, draws: dict[str, Any], args: dict[str, Any], clauses: list[Clause],
            review: Review, draw_of: Callable[[str], str], where: Callable[[str], Any]) -> None:
    """Each conditional clause's ``break`` (``draw_of``: an attribute's draw name); ``draws`` and
    ``args`` gain the own draws the breaks need."""
    _guard(clauses)
    for c in list(clauses):  # a table clause holding only_if a bool array's element: its length
        if "_flag" in c and _lengths(clauses, c, {"when": c["_flag"]}) is None:
            clauses.remove(c)
            review(Sentence(c["source"]["quote"], where(c["params"][0])), "conditional")
    for c in list(clauses):
        info = c.get("_conditional")
        if info is None:
            continue
        lengths = _lengths(clauses, c, info)
        steps = (_steps(s, draws, args, info, draw_of, lengths)
                 if lengths is not None and _nullable(ctx, clauses, c, info) else None)
        if steps is not None:
            c["break"] = steps
            continue
        clauses.remove(c)  # (a clause _guard made require it no longer does: generate_section)
        if str(c.get("on_violation", "")).startswith("ACLNN_"):
            names = [*info["when"], info.get("null"), info.get("perturb")]
            review(Sentence(c["source"]["quote"], where(next(n for n in names if n))), "conditional")


def _lengths(clauses: list[Clause], clause: Clause, info: dict[str, Any]) -> dict[str, int] | None:
    """The length of each bool array whose element the condition reads (the clause then requires
    the length clause); None when one has no length clause, or too few elements."""
    out = {}
    for name, made_true in info["when"].items():
        if not isinstance(made_true, dict):  # (an attribute's values, not an element)
            continue
        fixed = next((c for c in clauses if c["kind"] == "length" and name in c["params"]), None)
        if fixed is None or made_true["at"] >= fixed["length"]:
            return None
        out[name] = fixed["length"]
        clause["requires"] = list(dict.fromkeys([*clause.get("requires", []), fixed["id"]]))
    return out


def _guard(clauses: list[Clause]) -> None:
    """A conditional clause reading a tensor that another, under the same condition, says must be
    given requires that one: where the condition holds and the tensor is null, it is not evaluated
    ("当outputMask[0]为true，gradInput的shape与input的shape不相同" beside "…传入的gradInput是空指针时")."""
    for n in clauses:
        info = n.get("_conditional") or {}
        if "null" not in info:
            continue
        word, head = re.compile(rf"\b{re.escape(info['null'])}\b"), f"not ({info['test']}) or "
        for c in clauses:
            lines = c.get("all", [])
            if c is not n and "_conditional" in c and all(t.startswith(head) for t in lines) \
                    and any(word.search(t) for t in lines):
                c["requires"] = list(dict.fromkeys([*c.get("requires", []), n["id"]]))


def _nullable(ctx: Context, clauses: list[Clause], clause: Clause, info: dict[str, Any]) -> bool:
    """Whether the tensor the break draws null may be: an optional one (every clause reading it
    says ``present``), or a required one no other clause's ``all`` reads (it would be evaluated
    on null, unless as ``present(name)``, which says what null means, or in a clause requiring
    this one, ``_guard``; a behavior's ``when`` that cannot be evaluated does not speak for the
    case)."""
    name = info.get("null")
    if name is None or ctx.params[name].get("optional"):
        return True
    word, given = re.compile(rf"\b{re.escape(name)}\b"), f"present({name})"
    return not any(word.search(t.replace(given, "")) and not _guarded(t, name, word)
                   for c in clauses if c is not clause and clause.get("id") not in c.get("requires", [])
                   for t in c.get("all", []))


def _guarded(text: str, name: str, word: re.Pattern[str]) -> bool:
    """Whether ``text`` is an ``or`` chain saying nothing of a null ``name`` before it reads it
    ("not (weightG) or not present(gradWeight) or gradWeight.numel == …")."""
    at = text.find(f"not present({name}) or ")
    return at >= 0 and (at == 0 or text[:at].endswith(" or ")) and not word.search(text[:at])


def _steps(s: Shapes, draws: dict[str, Any], args: dict[str, Any], info: dict[str, Any],
           draw_of: Callable[[str], str], lengths: dict[str, int]) -> dict[str, Any] | None:
    steps: dict[str, Any] = {draw_of(a): {"sampled": list(v)} for a, v in info["when"].items()
                             if a not in lengths}
    for a, n in lengths.items():
        at, value = info["when"][a]["at"], info["when"][a]["value"]
        steps[draw_of(a)] = {"sampled": [[value if i == at else True for i in range(n)]]}
    steps |= info.get("steps", {})  # (a body's own break, drawn where its clause was: channel_ties.py)
    for attr, bad in info.get("bad", {}).items():
        if draw_of(attr) in steps:  # condition and body on one attribute: no value does both
            return None
        steps[draw_of(attr)] = {"sampled": bad}
    if "null" in info:
        own = _own_draw(draws, args, info["null"])
        if own is None:
            return None
        steps[own] = {"sampled": [None]}
    if "perturb" in info:
        tensor, like = info["perturb"], info["like"]
        if len(s.members(tensor)) > 1 and s.members(like) == [like]:
            tensor, like = like, tensor  # (moved, a tensor of a same_shape group breaks that too)
        _share_guess(s, args, tensor, like)
        if s.of.get(tensor) is None or s.of.get(tensor) != s.of.get(like):  # drawn apart: valid
            return None  # cases could break the clause, and a perturbed copy proves nothing
        own = _own_draw(draws, args, tensor)
        if own is None:
            return None
        steps[own] = {"mode": "perturb"}
    return steps


def _share_guess(s: Shapes, args: dict[str, Any], tensor: str, like: str) -> None:
    """A tensor no clause gave a shape (drawn like the first, a guess) drawn with ``like``'s shape,
    as the clause asks where its condition holds (and nothing asks elsewhere), when its own rank
    limits take that draw's ranks."""
    drawn, base = s.of.get(tensor), s.of.get(like)
    if drawn is None or base is None or drawn == base or tensor not in s.guessed \
            or s.members(tensor) != [tensor] or args.get(tensor) != drawn or base not in s.ranges:
        return
    low, high, _, unknown = s.ranks([tensor])
    if unknown or low <= s.ranges[base][0] and s.ranges[base][1] <= high:
        s.of[tensor] = args[tensor] = base
        s.guessed.remove(tensor)


def _own_draw(draws: dict[str, Any], args: dict[str, Any], tensor: str) -> str | None:
    """A draw giving ``tensor``'s shape alone: an ``expr`` copy of the one it shares (added to
    ``draws``, ``args`` pointing at it); None for a tensor not drawn as one draw's name."""
    drawn = args.get(tensor)
    if not isinstance(drawn, str) or drawn not in draws:
        return None
    if _alone(draws, args, tensor, drawn) and "expr" in draws[drawn]:
        return drawn
    own = next(n for n in (f"{tensor}_own_shape", *(f"{tensor}_own_shape_{i}" for i in range(2, 99)))
               if n not in draws and n not in args)
    draws[own] = {"expr": drawn}
    args[tensor] = own
    return own


def _alone(draws: dict[str, Any], args: dict[str, Any], tensor: str, drawn: str) -> bool:
    """Whether no other argument and no other draw reads ``drawn``."""
    word = re.compile(rf"\b{re.escape(drawn)}\b")
    others = [str(v) for n, v in args.items() if n != tensor] + [str(v) for n, v in draws.items()
                                                                   if n != drawn]
    return not any(word.search(t) for t in others)

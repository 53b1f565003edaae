"""The tensors' shape draws of a drafted spec's ``generate`` section, from its clauses.

Tensors tied by same_shape share one shape draw (its rank range from the table and the rank_in
clauses); a broadcasting group is drawn as a ``full`` shape with ``sub_broadcast`` members and
its result as their ``broadcast``; a tensor related to no other is drawn like the first (a
guess, listed for review). Apart from generate_section.py, which adds the attributes' draws and
resolves clause breaks to these draw names: the shapes are one problem, a union of tensors.
"""
from __future__ import annotations

from typing import Any

from conformance.draft import broadcast_into, forward_shapes
from conformance.draft.context import Clause, Context, read_by_call

DEFAULT_RANKS = (1, 4)  # a shape's rank range when the page gives none (a guess)
MAX_RANK = 8  # the aclnn limit most pages state; larger draws only cost time


class Shapes:
    """Tensors in classes of one shape (same_shape clauses), and the draw each class uses."""

    def __init__(self, ctx: Context, clauses: list[Clause]) -> None:
        self.ctx, self.clauses = ctx, clauses
        self.parent = {t: t for t in ctx.tensors}
        for c in clauses:
            if c["kind"] == "same_shape":
                for p in c["params"][1:]:
                    self.parent[self.rep(p)] = self.rep(c["params"][0])
        self.forward = forward_shapes.pairs(ctx)  # (gradient, forward input): one draw, a guess
        for grad, forward_input in self.forward:
            if self.rep(grad) != self.rep(forward_input):
                self.parent[self.rep(grad)] = self.rep(forward_input)
        self.draws: dict[str, dict[str, Any]] = {}
        self.of: dict[str, str] = {}  # tensor → the draw giving its shape
        self.guessed: list[str] = []
        self.held: list[str] = []  # outputs drawn as their inputs' broadcast (a guess to review)
        self.full: str | None = None  # the broadcasting group's whole shape, if any
        self.ranges: dict[str, tuple[int, int]] = {}  # the rank range of each shape draw

    def rep(self, t: str) -> str:
        while self.parent[t] != t:
            t = self.parent[t]
        return t

    def members(self, t: str) -> list[str]:
        return [m for m in self.ctx.tensors if self.rep(m) == self.rep(t)]

    def ranks(self, names: list[str]) -> tuple[int, int, list[int] | None, bool]:
        """(low, high, the allowed set when it has gaps, guessed) over the tensors' table ranks and
        every rank_in clause on them."""
        low, high, allowed, known = 0, MAX_RANK, None, False
        for n in names:
            row = self.ctx.rows.get(n)
            if row is not None and row.rank is not None:
                low, high, known = max(low, row.rank[0]), min(high, row.rank[1]), True
        for c in self.clauses:
            if c["kind"] == "rank_in" and set(c["params"]) & set(names):
                low, high = max(low, c.get("min", low)), min(high, c.get("max", high))
                if "ranks" in c:
                    allowed = sorted(set(c["ranks"]) & set(allowed or c["ranks"]))
                known = True
        if allowed:
            allowed = [r for r in allowed if low <= r <= high] or None
        if not known or low > high:
            return (*DEFAULT_RANKS, None, True)
        return low, high, allowed, False

    def empty(self, names: list[str]) -> str:
        said_yes = {n for c in self.clauses for n in c.get("_empty", [])}
        said_no = {n for c in self.clauses for n in c.get("_not_empty", [])}
        return "any" if set(names) & said_yes and not set(names) & said_no else "none"

    def shape_draw(self, name: str, names: list[str]) -> None:
        low, high, allowed, guessed = self.ranks(names)
        if guessed:
            self.guessed += [n for n in names if n not in self.guessed]
        rank: Any = [low, high]
        if allowed and allowed != list(range(allowed[0], allowed[-1] + 1)):
            self.draws[f"{name}_rank"] = {"sampled": allowed}
            rank = f"{name}_rank"
        elif allowed:
            rank = [allowed[0], allowed[-1]]
        self.draws[name] = {"shape": {"rank": rank, "dims": [1, 4], "empty": self.empty(names),
                                      "max_numel": 2048}}
        self.ranges[name] = (allowed[0], allowed[-1]) if allowed else (low, high)


def _broadcast(s: Shapes, clauses: list[Clause]) -> bool:
    """The broadcasting tensors drawn inside ``full``; False when no clause broadcasts."""
    results = {c["_result"]: c for c in clauses if "_result" in c}
    bcast = [c["params"] for c in clauses if c["kind"] == "broadcastable"]
    group = [t for t in s.ctx.tensors if any(t in params for params in bcast)
             or any(t in c["_members"] or (c["_into"] and t == r) for r, c in results.items())]
    group = [t for t in group if not (t in results and not results[t]["_into"])]
    if not group:
        return False
    full = s.full = "full" if "full" not in s.ctx.params else "full_shape"
    s.shape_draw(full, group)
    held = _held_broadcasts(s, group, results)
    for t in group:
        rep = s.rep(t)
        if t in held:
            continue
        if rep in s.of:
            s.of[t] = s.of[rep]
            continue
        into = t in results and results[t]["_into"]
        name = f"{rep}_shape"
        low = s.ranks(s.members(t))[0]
        s.draws[name] = {"expr": full} if into else {"sub_broadcast": full, "min_rank": low}
        s.ranges[name] = s.ranges[full] if into else (low, s.ranges[full][1])
        s.of[t] = s.of[rep] = name
    _into_broadcasts(s, clauses)
    for t, inputs in held.items():
        operands = ", ".join(dict.fromkeys(s.of[i] for i in inputs))
        _set(s, t, {"expr": f"broadcast({operands})"}, s.ranges[full])
        s.held.append(t)
    for r, c in results.items():
        if not c["_into"] and s.rep(r) not in s.of:
            operands = ", ".join(dict.fromkeys(s.of[m] for m in c["_members"] if m in s.of))
            _set(s, r, {"expr": f"broadcast({operands})"} if operands else {"expr": full}, s.ranges[full])
    return True


def _held_broadcasts(s: Shapes, group: list[str], results: dict[str, Clause]) -> dict[str, list[str]]:
    """Outputs of the broadcasting group sharing no input's shape and holding no broadcast a clause
    gives ("gradInput: shape需要与gradOutput满足broadcast关系"): each with the group's inputs.
    Drawn inside ``full`` like an input, an output smaller than the inputs' broadcast made valid
    cases an elementwise kernel refuses; drawn as their broadcast, and reviewed (a reduction's
    output, a norm's mean, has other dims)."""
    held: dict[str, list[str]] = {}
    for t in group:
        if t in results or any(read_by_call(s.ctx.params[m]) for m in s.members(t)):
            continue
        inputs = [i for i in group if read_by_call(s.ctx.params[i])]
        if inputs:
            held[t] = inputs
    return held


def _set(s: Shapes, t: str, draw: dict[str, Any], ranks: tuple[int, int]) -> None:
    name = f"{s.rep(t)}_shape"
    s.draws[name], s.ranges[name] = draw, ranks
    s.of[t] = s.of[s.rep(t)] = name


def _into_broadcasts(s: Shapes, clauses: list[Clause]) -> None:
    """A tensor broadcasting into its targets' broadcast (broadcast_into.py): drawn inside it."""
    for c in clauses:
        x, targets = c.get(broadcast_into.KEY, (None, ()))
        if x is None or s.rep(x) in s.of or not all(t in s.of for t in targets):
            continue
        operands = list(dict.fromkeys(s.of[t] for t in targets))
        low = s.ranks(s.members(x))[0]
        inside = operands[0] if len(operands) == 1 else f"broadcast({', '.join(operands)})"
        _set(s, x, {"sub_broadcast": inside, "min_rank": low}, (low, s.ranges[s.full][1]))


def draw_shapes(ctx: Context, clauses: list[Clause]) -> Shapes:
    s = Shapes(ctx, clauses)
    broadcasting = _broadcast(s, clauses)
    main: str | None = next(iter(s.of.values()), None)
    for c in clauses:  # "alpha元素个数不为1": a tensor of n elements, drawn alone as [n] (no main draw)
        tensors, n = c.get("_numel", ((), 0))
        for t in tensors:
            if t not in s.of and s.members(t) == [t]:
                s.draws[f"{t}_shape"] = {"expr": f"[{n}]"}
                s.of[t], s.ranges[f"{t}_shape"] = f"{t}_shape", (1, 1)
    for t in ctx.tensors:
        if t in s.of:
            continue
        rep, members = s.rep(t), s.members(t)
        if rep in s.of:
            s.of[t] = s.of[rep]
        elif len(members) > 1 or main is None:
            s.shape_draw(f"{rep}_shape", members)
            s.of[t] = s.of[rep] = f"{rep}_shape"
            main = main or s.of[t]
        else:  # related to no other tensor: drawn like the first (an elementwise guess) when
            # its ranks allow that shape, else in its own ranks
            outputs = [r for r, c in ((c.get("_result"), c) for c in clauses) if r and not c["_into"]]
            like = s.of[outputs[0]] if broadcasting and outputs and outputs[0] in s.of else main
            low, high, allowed, unknown = s.ranks([t])
            if unknown or (low <= s.ranges[like][0] and s.ranges[like][1] <= high and not allowed):
                s.of[t] = like
            else:
                s.shape_draw(f"{rep}_shape", [t])
                s.of[t] = f"{rep}_shape"
            s.guessed.append(t)
    return s


def drop_unused(draws: dict[str, Any], args: dict[str, Any], clauses: list[Clause], name: Any) -> None:
    """Draw ``name`` deleted when no argument, other draw or clause break names it any more (a
    tensor's own draw after a relation drew it from another's)."""
    others = {n: d for n, d in draws.items() if n != name}
    if isinstance(name, str) and name in draws and name not in repr(
            [args, others, [c.get("break") for c in clauses]]):
        del draws[name]

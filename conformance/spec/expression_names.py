"""How expressions name parameters whose names Python reserves (expressions.py parses with ``ast``).

A C prototype may call an argument ``from``, ``lambda`` (keywords) or ``min``, ``max`` (functions of
the language). Expressions name them as the prototype does: a keyword the language does not use
is respelled before parsing and given its name back in the tree, and a function's name is a
function only where it is called (expressions.py). The words the whitelisted syntax is written
with (``GRAMMAR``) are the only names no parameter can have.
"""
from __future__ import annotations

import io
import keyword
import tokenize

GRAMMAR = frozenset({"and", "or", "not", "in", "if", "else", "for", "True", "False", "None"})


def nameable(name: str) -> bool:
    """Whether an expression can name a parameter (or draw) called ``name``: any identifier but the
    words of ``GRAMMAR`` (``from``, ``lambda``, ``min`` are fine)."""
    return name.isidentifier() and name not in GRAMMAR


def spelled(text: str, names: frozenset[str]) -> tuple[str, dict[str, str]]:
    """``text`` with each keyword that names a parameter (``from``) spelled as an identifier Python
    parses (``from_``, one no other name uses), and the map back; the text itself where none does
    or it does not tokenize (the parser then says what is wrong)."""
    reserved = {n for n in names if keyword.iskeyword(n) and n not in GRAMMAR}
    if not reserved:
        return text, {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text, {}
    aliases: dict[str, str] = {}
    for word in reserved:
        alias = word + "_"
        while alias in names or alias in text:
            alias += "_"
        aliases[word] = alias
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out, at = [], 0
    for tok in tokens:
        if tok.type == tokenize.NAME and tok.string in aliases:
            begin = starts[tok.start[0] - 1] + tok.start[1]
            out += [text[at:begin], aliases[tok.string]]
            at = begin + len(tok.string)
    return "".join(out) + text[at:], {alias: word for word, alias in aliases.items()}

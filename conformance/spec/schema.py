"""A YAML document checked against a JSON Schema: the one error that names the field at fault,
with its file and line (used for spec files and waiver files alike)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import jsonschema

from conformance.errors import ConformanceError
from conformance.spec.yaml_lines import LocatedYaml


def describe(err: jsonschema.ValidationError) -> str:
    """A schema error in a user's words (jsonschema's own are written for programmers)."""
    if err.validator == "required":
        return err.message.replace("is a required property", "is required but missing")
    if err.validator in ("enum", "const"):
        allowed = err.validator_value if err.validator == "enum" else [err.validator_value]
        return f"{err.instance!r} is not one of {', '.join(map(str, allowed))}"
    if err.validator == "type":
        return f"expected {err.validator_value}, got {type(err.instance).__name__} {err.instance!r}"
    if err.validator in ("additionalProperties", "unevaluatedProperties"):
        return err.message.replace("were unexpected", "are not allowed here").replace(
            "was unexpected", "is not allowed here")
    return err.message


def dotted(path: Iterable[Any]) -> str:
    """``("constraints", 3, "expr")`` -> ``constraints[3].expr``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def validate(doc: LocatedYaml, data: Any, schema: dict[str, Any], error: type[ConformanceError],
             words: Callable[[jsonschema.ValidationError], str] = describe) -> None:
    """Raise ``error`` naming the file, line and field of the first problem ``schema`` finds."""
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if not errors:
        return
    # The deepest error names the field itself, not the constraint that contains it.
    depth = max(len(e.absolute_path) for e in errors)
    err = jsonschema.exceptions.best_match(e for e in errors if len(e.absolute_path) == depth)
    path = tuple(err.absolute_path)
    raise error(words(err), file=doc.file, line=doc.line_of(path), field=dotted(path) or "(top level)")

"""A spec pack's own ``vocabulary.yaml``: the product lines (and dtypes, formats, status codes) it
ADDS to the shipped vocabulary, so a drafted page may name a product line the shipped one lacks.

An entry whose id the vocabulary already has must be the very same entry: a product or dtype means
one thing in every pack, so redefining one is a ``SpecError`` naming the pack's file and line.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from conformance.errors import SpecError
from conformance.spec.schema import validate
from conformance.spec.vocabulary import DType, Vocabulary
from conformance.spec.yaml_lines import LocatedYaml, load_yaml

VOCABULARY_FILE = "vocabulary.yaml"

#: The lists a vocabulary holds, with the key naming an entry and the defaults of optional keys.
LISTS = {"products": ("id", {"soc": []}), "dtypes": ("name", {"aliases": []}),
         "formats": ("name", {}), "status_codes": ("name", {})}


def pack_vocabulary(dirs: tuple[Path, ...], base: Path, schema: dict[str, Any]
                    ) -> tuple[Vocabulary, list[Path]]:
    """``base``'s vocabulary (the whole of it, checked against ``schema``) with what the
    vocabulary.yaml of each of ``dirs`` adds; the files read, ``base`` first."""
    doc = load_yaml(base, SpecError)
    if not isinstance(doc.data, dict):
        raise SpecError("expected a mapping at the top level", file=doc.file, line=1)
    validate(doc, doc.data, schema, SpecError)
    data, used = doc.data, [base]
    for root in dirs:
        own = Path(root) / VOCABULARY_FILE
        if own.is_file() and own.resolve() != base.resolve():
            data = add_pack(data, load_yaml(own, SpecError), schema)
            used.append(own)
    return Vocabulary(data), used


def additions_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The vocabulary schema with every top-level key optional: a pack lists only what it adds."""
    out = copy.deepcopy(schema)
    out["required"] = []
    for name in LISTS:
        out["properties"][name].pop("minItems", None)
    return out


def add_pack(base: dict[str, Any], pack: LocatedYaml, schema: dict[str, Any]) -> dict[str, Any]:
    """``base`` (the raw data of a vocabulary) with ``pack``'s additions; ``SpecError`` naming the
    pack's file and line for an entry that redefines one of ``base`` or clashes with its names."""
    data = pack.data if pack.data is not None else {}
    if not isinstance(data, dict):
        raise SpecError("expected a mapping at the top level", file=pack.file, line=1)
    validate(pack, data, additions_schema(schema), SpecError)
    if data.get("spec_version", base["spec_version"]) != base["spec_version"]:
        raise SpecError(f"spec_version {data['spec_version']} differs from the shipped vocabulary's "
                        f"{base['spec_version']}: a pack may only add entries", file=pack.file,
                        line=pack.line_of(("spec_version",)), field="spec_version")
    if data.get("dtype_rules", base.get("dtype_rules")) != base.get("dtype_rules"):
        raise SpecError("dtype_rules differ from the shipped vocabulary's: the vendor's promotion and "
                        "cast tables are one for every pack (remove them)", file=pack.file,
                        line=pack.line_of(("dtype_rules",)), field="dtype_rules")
    out = {**base, **{name: list(base[name]) for name in LISTS}}
    for name, (key, defaults) in LISTS.items():
        for i, entry in enumerate(data.get(name, [])):
            _add(out, name, key, {**defaults, **entry}, pack, (name, i))
    return out


def _add(out: dict[str, Any], name: str, key: str, entry: dict[str, Any], pack: LocatedYaml,
         at: tuple[Any, ...]) -> None:
    def fail(message: str) -> SpecError:
        return SpecError(message, file=pack.file, line=pack.line_of(at), field=f"{name}[{at[1]}]")

    _, defaults = LISTS[name]
    known = {e[key]: {**defaults, **e} for e in out[name]}
    ident = entry[key]
    if ident in known:
        if known[ident] != entry:
            raise fail(f"{name[:-1].replace('_', ' ')} {ident!r} is already defined differently: a "
                       "pack may only add entries (remove it, or make it the same)")
        return
    clash = _clashes(out, name, entry)
    if clash:
        raise fail(f"{clash} already names another entry of the vocabulary")
    if name == "dtypes":
        try:
            _ = DType(entry["name"], (), entry["numpy"], 0, entry["kind"]).numpy
        except (TypeError, AttributeError):
            raise fail(f"numpy dtype {entry['numpy']!r} is unknown (numpy or ml_dtypes name)") from None
    out[name].append(entry)


def _clashes(out: dict[str, Any], name: str, entry: dict[str, Any]) -> str | None:
    """The first name of ``entry`` a lookup of the vocabulary would already resolve, if any."""
    vocab = Vocabulary(out)
    if name == "products":
        for alias in (entry["id"], *entry["soc"]):
            if vocab.product(alias) is not None:
                return f"{alias!r}"
    if name == "dtypes":
        for alias in (entry["name"], *entry["aliases"], entry["numpy"]):
            if vocab.dtype(alias) is not None:
                return f"{alias!r}"
    return None

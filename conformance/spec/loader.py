"""Load and validate spec files: JSON Schema first, then the cross-references the schema cannot see.

Every failure is a ``SpecError`` naming the file, the line and the field.
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import cache, lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from conformance.errors import SpecError
from conformance.spec.doc_version import bare_dates
from conformance.spec.model import OperatorSpec, SpecSet
from conformance.spec.operator_builder import OperatorBuilder
from conformance.spec.pack_vocabulary import VOCABULARY_FILE, pack_vocabulary
from conformance.spec.schema import validate
from conformance.spec.vocabulary import Vocabulary
from conformance.spec.yaml_lines import LocatedYaml, load_yaml


def specs_dir() -> Path:
    """The shipped specs: inside the installed package, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "specs", package.parent / "specs"):
        if (candidate / VOCABULARY_FILE).is_file():
            return candidate
    raise SpecError("the shipped spec directory is missing (reinstall the package)", file=str(package))


@cache
def _schema(name: str) -> dict[str, Any]:
    return json.loads((specs_dir() / "schema" / name).read_text(encoding="utf-8"))


def _validate(doc: LocatedYaml, schema_name: str) -> None:
    if not isinstance(doc.data, dict):
        raise SpecError("expected a mapping at the top level", file=doc.file, line=1)
    validate(doc, doc.data, _schema(schema_name), SpecError)


def load_vocabulary(path: Path) -> Vocabulary:
    doc = load_yaml(path, SpecError)
    _validate(doc, "vocabulary.schema.json")
    return Vocabulary(doc.data)


def read_operator(path: Path, vocab: Vocabulary, text: str | None = None) -> OperatorSpec:
    """Read one operator spec (schema and cross-references; generate/dry_run.py then runs its
    ``generate`` section); ``text`` overrides the file contents (used by lint and fuzz tests)."""
    doc = load_yaml(path, SpecError, text=text)
    bare_dates(doc.data)
    _validate(doc, "operator.schema.json")
    return OperatorBuilder(doc, vocab).build()


def read_specs(directory: str | Path | None = None) -> SpecSet:
    """Every operator spec in ``directory`` (default: the shipped specs) with the shipped vocabulary
    and what the directory's own vocabulary.yaml adds, read but not dry-run:
    ``conformance.load_specs`` (generate/dry_run.py) does both."""
    return read_packs((Path(directory) if directory is not None else specs_dir(),))


#: Where spec packs come from besides the shipped one: the entry points of this group (each names a
#: function returning a directory) and the directories in this environment variable (os.pathsep-
#: separated; ``--specs DIR`` sets it, so xdist and isolated workers inherit it).
PACK_GROUP = "conformance.specs"
SPECS_ENV = "CONFORMANCE_SPECS"


def spec_dirs() -> tuple[Path, ...]:
    """The directories of the active spec packs: the shipped one, each ``conformance.specs`` entry
    point's, then each ``CONFORMANCE_SPECS`` directory (duplicates once)."""
    return _spec_dirs(os.environ.get(SPECS_ENV, ""))


@lru_cache(maxsize=8)
def _spec_dirs(extra: str) -> tuple[Path, ...]:
    dirs = [specs_dir().resolve()]
    for ep in sorted(entry_points(group=PACK_GROUP), key=lambda e: e.name):
        try:
            found = Path(ep.load()()).resolve()
        except Exception as exc:  # noqa: BLE001 - a broken third-party pack is one clear error
            raise SpecError(f"spec pack {ep.name!r} ({ep.value}) failed to load: "
                            f"{type(exc).__name__}: {exc}") from None
        dirs.append(found)
    for text in _given(extra):
        path = Path(text).resolve()
        if not path.is_dir():
            raise SpecError(f"--specs {text}: not a directory of spec files", file=text)
        dirs.append(path)
    return tuple(dict.fromkeys(dirs))


def given_spec_dirs() -> tuple[str, ...]:
    """The packs given with ``--specs`` (``CONFORMANCE_SPECS``), as given: what a command that
    reruns a case of this run must name again."""
    return _given(os.environ.get(SPECS_ENV, ""))


def _given(extra: str) -> tuple[str, ...]:
    return tuple(filter(None, extra.split(os.pathsep)))


def vocabulary_for(dirs: tuple[Path, ...], base: Path | None = None) -> tuple[Vocabulary, list[Path]]:
    """The vocabulary of packs ``dirs``: ``base``'s (default: the shipped one) with what each pack's
    own vocabulary.yaml adds, and the files it was read from (spec/pack_vocabulary.py)."""
    return pack_vocabulary(dirs, base or specs_dir() / VOCABULARY_FILE, _schema("vocabulary.schema.json"))


def read_packs(dirs: tuple[Path, ...], vocab_path: Path | None = None) -> SpecSet:
    """The operators of every pack in ``dirs`` with one vocabulary (``vocabulary_for``), so a
    product or dtype means one thing in every pack."""
    vocab, used = vocabulary_for(dirs, vocab_path)
    digest = hashlib.sha256()
    for path in used:
        digest.update(path.read_bytes())
    operators: dict[str, OperatorSpec] = {}
    for root in dirs:
        for path in sorted(p for p in root.glob("*.yaml") if p.name != VOCABULARY_FILE):
            spec = read_operator(path, vocab)
            if spec.api in operators:
                raise SpecError(f"operator {spec.api} is defined twice (also in {operators[spec.api].file})",
                                file=str(path))
            operators[spec.api] = spec
            digest.update(path.read_bytes())
    return SpecSet(vocab, operators, vocab.spec_version, digest.hexdigest()[:16])


def read_shipped_specs() -> SpecSet:
    """The specs of every active pack (``spec_dirs``; the shipped one alone unless packs are
    installed or given), read once per process and pack set (what backends need)."""
    return _read_packs(spec_dirs())


@lru_cache(maxsize=4)
def _read_packs(dirs: tuple[Path, ...]) -> SpecSet:
    return read_packs(dirs)

"""The directory drafts are written to: a spec pack (``<api>.yaml`` files and the
``vocabulary.yaml`` of what they add to the shipped vocabulary) marked as written by
``conformance draft``, so a later draft may overwrite it and nobody's own files are touched."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml

from conformance.draft.emit import DraftedSpec, vocabulary_additions
from conformance.errors import UsageError

MARKER = ".conformance-draft"
VOCABULARY = "vocabulary.yaml"


def check_output_dir(path: Path) -> None:
    """``UsageError`` unless ``path`` is absent, empty or written by an earlier draft (its marker)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UsageError("-o: a file, not a directory", file=str(path))
    if path.is_dir() and any(path.iterdir()) and not (path / MARKER).is_file():
        raise UsageError("-o: the directory holds files no conformance draft wrote (no marker file "
                         f"{MARKER}): give another directory; nothing was written", file=str(path))
    existing = path if path.exists() else next((p for p in path.parents if p.exists()), Path("."))
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError("-o: not writable", file=str(existing))


def write_pack(path: Path, drafts: list[DraftedSpec]) -> list[Path]:
    """Write each draft and the vocabulary additions (merged with an earlier draft's); the files."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        (path / MARKER).write_text("written by aclnn-conformance: drafted specs; a later "
                                   "`conformance draft` may overwrite them\n", encoding="utf-8")
        written = []
        for d in drafts:
            target = path / f"{d.api}.yaml"
            target.write_text(d.text, encoding="utf-8")
            written.append(target)
        additions = _merged(path / VOCABULARY, vocabulary_additions(drafts))
        if additions:
            (path / VOCABULARY).write_text(
                "# Written by `conformance draft`: what these drafts add to the shipped vocabulary.\n"
                + yaml.safe_dump(additions, allow_unicode=True, sort_keys=False), encoding="utf-8")
            written.append(path / VOCABULARY)
    except OSError as exc:
        raise UsageError(f"-o: cannot write: {exc.strerror or exc}", file=str(path)) from None
    return written


def _merged(file: Path, new: dict[str, Any]) -> dict[str, Any]:
    """An earlier draft's additions with this one's (entries keep their first definition)."""
    old = yaml.safe_load(file.read_text(encoding="utf-8")) if file.is_file() else None
    out: dict[str, list[dict[str, Any]]] = {}
    for data in (old or {}, new):
        for name, key in (("products", "id"), ("status_codes", "name")):
            have = {e[key] for e in out.get(name, [])}
            out.setdefault(name, []).extend(e for e in data.get(name, []) if e[key] not in have)
    return {k: v for k, v in out.items() if v}


def write_stats(file: Path, doc: dict[str, Any]) -> None:
    try:
        Path(file).parent.mkdir(parents=True, exist_ok=True)
        Path(file).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--stats: cannot write: {exc.strerror or exc}", file=str(file)) from None

"""Where a page comes from, for a draft's ``documents`` and ``doc_version``: the repository it
belongs to ("hicann/ops-nn"), its path there, and the revision and date of its last commit when
git knows them (a page file in a work tree, unmodified)."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Origin:
    document: str  # "<repo>: <path in repo>", or the path as given outside a repository
    path: str  # the path in the repository (or as given)
    revision: str | None = None
    date: str | None = None


def _git(where: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, check=False)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return done.stdout.decode("utf-8", errors="replace").strip() if done.returncode == 0 else None


def repo_name(checkout: Path) -> str:
    """A checkout's name: its directory's, or for a bare mirror kept as ``owner+name/repo`` (or a
    ``.git`` directory) its parent's, with ``+`` read as ``/``."""
    path = Path(checkout).resolve()
    if path.name in ("repo", ".git") and path.parent.name:
        path = path.parent
    return path.name.replace("+", "/")


def in_checkout(checkout: Path, rel_path: str) -> Origin:
    return Origin(f"{repo_name(checkout)}: {rel_path}", rel_path)


def of_file(page: Path) -> Origin:
    """A page file: its repository and last commit when it is tracked and unmodified."""
    page = Path(page)
    top = _git(page.parent, "rev-parse", "--show-toplevel")
    if not top:
        return Origin(str(page), str(page))
    rel = page.resolve().relative_to(Path(top).resolve()).as_posix()
    origin = Origin(f"{repo_name(Path(top))}: {rel}", rel)
    if _git(Path(top), "status", "--porcelain", "--", rel) != "":  # modified, untracked or unknown
        return origin
    log = _git(Path(top), "log", "-1", "--format=%H %ad", "--date=short", "--", rel)
    sha, _, date = (log or "").partition(" ")
    return Origin(origin.document, rel, sha or None, date or None)

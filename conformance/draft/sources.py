"""Where pages come from: files and directories on disk, or a docs git checkout at a revision
(a work tree or a bare repository), read through the ``git`` command."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conformance.errors import UsageError

_PAGE = re.compile(r"(?:^|/)docs/aclnn[^/]*\.md$")


def find_pages(path: Path) -> list[Path]:
    """A page file as given, or every ``docs/aclnn*.md`` under a directory, sorted."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise UsageError("no such file or directory", file=str(path))
    return sorted(p for p in path.rglob("aclnn*.md") if p.parent.name == "docs" and p.is_file())


def _git(checkout: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(checkout), *args], capture_output=True, check=False)
    except FileNotFoundError as error:  # no git on this machine
        raise UsageError("the git command is not available", file=str(checkout)) from error


def _commit(checkout: Path, rev: str) -> str:
    """The full sha of ``rev`` in ``checkout``; a clear error for a non-checkout or unknown rev."""
    if not Path(checkout).is_dir() or _git(checkout, "rev-parse", "--git-dir").returncode != 0:
        raise UsageError("not a git checkout (a work tree or a bare repository)", file=str(checkout))
    found = _git(checkout, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if found.returncode != 0:
        raise UsageError(f"unknown revision {rev!r}", file=str(checkout))
    return found.stdout.decode().strip()


def pages_at_revision(checkout: Path, rev: str, under: str = "") -> list[str]:
    """The repository paths of every ``docs/aclnn*.md`` page at ``rev`` (under the directory
    ``under``, given), sorted."""
    return files_at_revision(checkout, rev, _PAGE, under)


def files_at_revision(checkout: Path, rev: str, pattern: re.Pattern[str], under: str = "") -> list[str]:
    """The repository paths at ``rev`` that ``pattern`` finds (under ``under``, given), sorted."""
    commit = _commit(checkout, rev)
    listed = _git(checkout, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit,
                  *([f"{under.strip('/')}/"] if under else []))
    if listed.returncode != 0:
        raise UsageError(f"cannot list the files of {rev!r}: {listed.stderr.decode().strip()}",
                         file=str(checkout))
    names = listed.stdout.decode("utf-8", errors="replace").split("\0")
    return sorted(n for n in names if pattern.search(n))


def named_at_revision(checkout: Path, rel_path: str, rev: str) -> list[str]:
    """What one path given on the command line names at ``rev``: the page itself, or, for a
    directory, every page under it (as ``find_pages`` does on disk)."""
    if not rel_path.strip("/ "):  # "" would name the whole tree: say so rather than guess
        raise UsageError("an empty page path: name a page or a directory inside the checkout, or "
                         "no path for every page", file=str(checkout))
    kind = _git(checkout, "cat-file", "-t", f"{_commit(checkout, rev)}:{rel_path.strip('/')}")
    if kind.stdout.decode().strip() == "tree":
        return pages_at_revision(checkout, rev, rel_path)
    return [rel_path]


def page_at_revision(checkout: Path, rel_path: str, rev: str) -> tuple[str, str, str]:
    """A page as of ``rev``: its text, the full sha of the last commit at or before ``rev`` that
    touched it, and that commit's date (YYYY-MM-DD)."""
    commit, text = _commit(checkout, rev), text_at_revision(checkout, rel_path, rev)
    log = _git(checkout, "log", "-1", "--format=%H %ad", "--date=short", commit, "--", rel_path)
    sha, _, date = log.stdout.decode().strip().partition(" ")
    if log.returncode != 0 or not sha:
        raise UsageError(f"no commit touches {rel_path} at revision {rev!r}", file=str(checkout))
    return text, sha, date


def text_at_revision(checkout: Path, rel_path: str, rev: str) -> str:
    """The text of one file as of ``rev``."""
    shown = _git(checkout, "show", f"{_commit(checkout, rev)}:{rel_path}")
    if shown.returncode != 0:
        raise UsageError(f"{rel_path} does not exist at revision {rev!r}", file=str(checkout))
    return shown.stdout.decode("utf-8", errors="replace")

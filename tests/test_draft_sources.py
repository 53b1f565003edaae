"""sources: pages on disk, and pages of a docs git checkout (work tree or bare) at a revision."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from conformance.draft.sources import find_pages, named_at_revision, page_at_revision, pages_at_revision
from conformance.errors import UsageError

PAGES = Path(__file__).parent / "fixtures" / "pages"
PAGE = "ops/frob/docs/aclnnFrob.md"


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    if date:
        env.update(GIT_AUTHOR_DATE=f"{date}T12:00:00", GIT_COMMITTER_DATE=f"{date}T12:00:00")
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True)
    return done.stdout.decode().strip()


@pytest.fixture
def docs(tmp_path: Path) -> tuple[Path, list[str]]:
    """A repository with a page changed twice and a third commit touching another file."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q")
    page = repo / PAGE
    page.parent.mkdir(parents=True)
    shas = []
    for text, date in (("# aclnnFrob\n版本一\n", "2025-03-04"), ("# aclnnFrob\n版本二\n", "2025-06-07")):
        page.write_text(text, encoding="utf-8")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "page", date=date)
        shas.append(git(repo, "rev-parse", "HEAD"))
    (repo / "ops" / "frob" / "docs" / "notes.md").write_text("not a page\n", encoding="utf-8")
    (repo / "ops" / "frob" / "aclnnOutside.md").write_text("not under docs\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "other files", date="2025-09-10")
    git(repo, "tag", "v2")
    return repo, shas


def test_page_at_each_revision(docs: tuple[Path, list[str]]) -> None:
    repo, (first, second) = docs
    assert page_at_revision(repo, PAGE, first) == ("# aclnnFrob\n版本一\n", first, "2025-03-04")
    assert page_at_revision(repo, PAGE, first[:10]) == ("# aclnnFrob\n版本一\n", first, "2025-03-04")
    # at HEAD (a commit that does not touch the page) the page's last change is the second commit
    assert page_at_revision(repo, PAGE, "HEAD") == ("# aclnnFrob\n版本二\n", second, "2025-06-07")
    assert page_at_revision(repo, PAGE, "v2")[1] == second


def test_pages_at_revision_lists_docs_pages_only(docs: tuple[Path, list[str]]) -> None:
    repo, (first, _) = docs
    assert pages_at_revision(repo, "HEAD") == [PAGE]
    assert pages_at_revision(repo, first) == [PAGE]


def test_a_bare_repository_reads_the_same(docs: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, (first, second) = docs
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    assert pages_at_revision(bare, "HEAD") == [PAGE]
    assert page_at_revision(bare, PAGE, "HEAD") == ("# aclnnFrob\n版本二\n", second, "2025-06-07")
    assert page_at_revision(bare, PAGE, first)[0] == "# aclnnFrob\n版本一\n"


def test_clear_errors(docs: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, (first, _) = docs
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(UsageError, match=r"plain: not a git checkout"):
        pages_at_revision(plain, "HEAD")
    with pytest.raises(UsageError, match=r"not a git checkout"):
        page_at_revision(tmp_path / "missing", PAGE, "HEAD")
    with pytest.raises(UsageError, match=r"unknown revision 'v9'"):
        page_at_revision(repo, PAGE, "v9")
    with pytest.raises(UsageError, match=r"ops/frob/docs/aclnnNew.md does not exist at revision"):
        page_at_revision(repo, "ops/frob/docs/aclnnNew.md", first)
    assert UsageError.exit_code == 2


def test_a_path_at_a_revision_names_a_page_or_a_directory(docs: tuple[Path, list[str]]) -> None:
    repo, (first, _) = docs
    assert named_at_revision(repo, PAGE, "HEAD") == [PAGE]
    assert named_at_revision(repo, "ops/frob", "HEAD") == [PAGE]  # searched like a directory on disk
    assert named_at_revision(repo, "ops/frob/", first) == [PAGE]
    assert named_at_revision(repo, "ops/frob/docs/aclnnNew.md", "HEAD") == ["ops/frob/docs/aclnnNew.md"]
    assert pages_at_revision(repo, "HEAD", "ops/other") == []
    with pytest.raises(UsageError, match=r"docs: an empty page path: name a page or a directory"):
        named_at_revision(repo, "", "HEAD")


def test_find_pages(tmp_path: Path) -> None:
    found = find_pages(PAGES)
    assert [p.relative_to(PAGES).as_posix() for p in found] == [
        "blend/docs/aclnnBlendLegacy.md", "broken/docs/aclnnNoPrototype.md",
        "clauses_elementwise/docs/aclnnToyMix.md", "layouts/docs/aclnnFrob&aclnnInplaceFrob.md",
        "layouts/docs/aclnnGlimmer.md", "layouts/docs/aclnnMeasureToyWeight.md",
        "span/docs/aclnnSpanGather.md",
        "wobble/docs/aclnnWobble.md"]
    one = PAGES / "span" / "docs" / "aclnnSpanGather.md"
    assert find_pages(one) == [one]
    (tmp_path / "aclnnLoose.md").write_text("# x\n", encoding="utf-8")  # not under a docs directory
    assert find_pages(tmp_path) == []
    with pytest.raises(UsageError, match="no such file or directory"):
        find_pages(tmp_path / "absent")

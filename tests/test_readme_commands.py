"""Every command of the README's ```bash blocks, as written: the conformance commands run (in a
scratch directory) and either judge (exit 0/1) or refuse in one line (exit 2) where this machine
lacks what they need (CANN); the install and test commands are the ones CI runs."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands() -> list[str]:
    """Each command of each bash block: lines split at ``&&``, comments and blank lines dropped."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            out += [part.strip() for part in line.split("&&") if part.strip()]
    return out


def test_the_readme_has_the_blocks_this_file_checks():
    found = commands()
    assert found[:4] == ["pip install -e .", "conformance run --profile quick -n 2",
                         "pip install -e '.[dev]'", "python -m pytest -n 2 -q"]
    assert any(c.startswith("conformance run --backend aclnn") for c in found)


def test_the_install_commands_name_extras_that_exist():
    table = (ROOT / "pyproject.toml").read_text().split("[project.optional-dependencies]", 1)[1]
    extras = set(re.findall(r"^(\w+) = \[", table.split("\n[", 1)[0], re.M))  # (no tomllib on 3.10)
    assert {"dev", "torch"} <= extras
    for cmd in commands():
        if cmd.startswith("pip install"):
            named = re.findall(r"\.\[([a-z,]+)\]", cmd)
            assert all(set(group.split(",")) <= extras for group in named), cmd


def test_the_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    tests = [c for c in commands() if c.startswith("python -m pytest")]
    assert tests and all(c in ci for c in tests)


def _run(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "C": str(cwd / "no-cann"), "ASCEND_HOME_PATH": str(cwd / "no-cann")}
    # the shell expands $C as the README's reader's shell would; conformance is this venv's
    argv = shlex.split(os.path.expandvars(cmd.replace("$C", env["C"])))
    exe = Path(sys.executable).with_name("conformance")
    return subprocess.run([str(exe), *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)


@pytest.mark.slow
@pytest.mark.parametrize("cmd", [c for c in commands() if c.startswith("conformance ")])
def test_each_conformance_command_judges_or_refuses_in_one_line(cmd, tmp_path):
    done = _run(cmd, tmp_path)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    if done.returncode == 2:  # the machine lacks what it needs (no CANN here): one line says what
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("conformance: error: "), done.stderr
        assert "--backend aclnn" in cmd, f"{cmd} should run here: {done.stderr}"
    else:
        assert done.returncode == 0, (cmd, done.stdout[-2000:], done.stderr[-2000:])
        assert (tmp_path / "reports" / "report.json").is_file()


def test_workers_that_would_import_another_checkout_are_refused(tmp_path):
    from conformance.errors import UsageError
    from conformance.run.launch import check_no_shadowing_checkout

    check_no_shadowing_checkout(ROOT)  # this checkout is the package running: its workers agree
    (tmp_path / "conformance").mkdir()
    (tmp_path / "conformance" / "__init__.py").write_text("")
    with pytest.raises(UsageError, match=r"-n: the workers would import .*conformance \(the current "
                                         r"directory\) instead of the installed"):
        check_no_shadowing_checkout(tmp_path)

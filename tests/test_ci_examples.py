"""The shipped CI pipelines (examples/ci) split a campaign over N jobs and merge them: their own
commands, run here with a quick profile against the reference, merge into what one run gives."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import KL

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "ci"
#: The campaign made small: what replaces the pipelines' backend and profile here.
SMALL = {"--backend aclnn": "--backend reference",
         "--profile thorough": f"--profile quick --op {KL} --product atlas-a2 --max-examples 3"}


def _small(command: str) -> str:
    for big, small in SMALL.items():
        command = command.replace(big, small)
    return command


def github() -> tuple[int, list[str], list[str]]:
    """(N, the shard command per shard, the merge job's commands), as the workflow's shell runs them."""
    flow = yaml.safe_load((EXAMPLES / "github-actions.yml").read_text())
    env, shard, merge = flow["env"], flow["jobs"]["shard"], flow["jobs"]["merge"]
    shards = shard["strategy"]["matrix"]["shard"]
    run = next(s["run"] for s in shard["steps"] if "$RUN" in s.get("run", ""))
    commands = [run.replace("$RUN", env["RUN"]).replace("$SHARDS", str(env["SHARDS"]))
                .replace("${{ matrix.shard }}", str(k)) for k in shards]
    assert shards == list(range(1, env["SHARDS"] + 1))
    after = [s["run"] for s in merge["steps"] if "run" in s and not s["run"].startswith("pip ")]
    return env["SHARDS"], commands, after


def gitlab() -> tuple[int, list[str], list[str]]:
    flow = yaml.safe_load((EXAMPLES / "gitlab-ci.yml").read_text())
    n, run = flow["shard"]["parallel"], flow["variables"]["RUN"]
    script = next(line for line in flow["shard"]["script"] if "$RUN" in line)
    commands = [script.replace("$RUN", run).replace("$CI_NODE_INDEX", str(k))
                .replace("$CI_NODE_TOTAL", str(n)) for k in range(1, n + 1)]
    return n, commands, [line for line in flow["merge"]["script"] if not line.startswith("pip ")]


def _sh(command: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", _small(command)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def _comparable(report: dict) -> dict:
    return {k: report[k] for k in ("outcome", "results", "findings", "observations", "numerics", "apis")} | {
        "items": sorted((i["item"], i["outcome"], i["cases"]) for i in report["items"])}


def test_both_pipelines_split_the_same_way():
    gh, gl = github(), gitlab()
    assert gh[0] == gl[0] >= 2
    assert [c.split("--shard ")[1].split()[0] for c in gh[1]] == [f"{k}/{gh[0]}" for k in range(1, gh[0] + 1)]
    assert [c.split("--shard ")[1].split()[0] for c in gl[1]] == [f"{k}/{gl[0]}" for k in range(1, gl[0] + 1)]


@pytest.mark.slow
@pytest.mark.parametrize("pipeline", [github, gitlab])
def test_the_pipeline_merges_its_shards_into_the_whole_run(pipeline, tmp_path):
    n, shards, merge = pipeline()
    for command in shards:
        done = _sh(command, tmp_path)
        assert done.returncode == 0, (command, done.stderr[-2000:])
    for command in merge:
        done = _sh(command, tmp_path)
        assert done.returncode == 0, (command, done.stdout[-1000:], done.stderr[-2000:])
    merged = json.loads((tmp_path / "merged" / "report.json").read_text())
    assert (tmp_path / "merged" / "report.html").is_file()
    whole_cmd = shards[0].split(" --shard ")[0] + " --report-dir whole"
    assert _sh(whole_cmd, tmp_path).returncode == 0
    whole = json.loads((tmp_path / "whole" / "report.json").read_text())
    assert len(merged["items"]) == len(whole["items"]) > n
    assert _comparable(merged) == _comparable(whole)

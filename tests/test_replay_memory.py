"""``replay`` refuses a case whose tensors cannot be allocated: exit 2, one line naming the case file
and the memory it needs, before a byte is allocated (it was a numpy ``_ArrayMemoryError`` traceback)."""
from __future__ import annotations

import re

import pytest
from helpers import kl_case, t

import conformance.cases.footprint as footprint
import conformance.cli.run as cli_run
from conformance.cases.footprint import human_bytes
from conformance.cases.materialize import materialize, storage_bytes
from conformance.cli.main import main
from conformance.generate.dry_run import shipped_specs

CASE = """api: aclnnKlDivBackward
product: atlas-a2
args:
  gradOutput: {{shape: {shape}, dtype: FLOAT}}
  self: {{shape: {shape}, dtype: FLOAT}}
  target: {{shape: {shape}, dtype: FLOAT}}
  reduction: 0
  logTarget: false
  out: {{shape: {shape}, dtype: FLOAT}}
"""


def _case_file(tmp_path, shape):
    path = tmp_path / "case.yaml"
    path.write_text(CASE.format(shape=shape))
    return path


def _replay(path, capsys):
    rc = main(["replay", str(path), "--backend", "reference"])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def test_a_case_of_petabytes_is_refused_in_one_line_naming_the_file_and_the_size(tmp_path, capsys):
    path = _case_file(tmp_path, "[100000, 100000, 100000]")
    rc, out, err = _replay(path, capsys)
    # four FLOAT tensors of 10^15 elements, each with 2 x 8 guard elements: 4 * 4 * (10^15 + 16)
    assert rc == 2 and out == ""
    assert re.fullmatch(rf"conformance: error: {re.escape(str(path))}: the case's tensors need 14.2 PiB "
                        r"\(16000000000000256 bytes\) of storage, more than the [0-9.]+ [GMT]iB of "
                        r"memory available; nothing was run\n", err), err


def test_the_limit_is_the_memory_available(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(footprint, "available_memory", lambda: 1000)
    path = _case_file(tmp_path, "[2, 3]")
    rc, _, err = _replay(path, capsys)  # 4 * 4 * (6 + 16) = 352 bytes: fits
    assert rc == 0, err
    path = _case_file(tmp_path, "[4, 16]")  # 4 * 4 * (64 + 16) = 1280 bytes: does not
    rc, _, err = _replay(path, capsys)
    assert rc == 2
    assert "need 1.25 KiB (1280 bytes) of storage, more than the 1000 bytes of memory" in err


def test_running_out_of_memory_while_judging_is_one_line_too(tmp_path, capsys, monkeypatch):
    class Exhausted(cli_run.Judge):
        def judge(self, drawn, families=()):
            raise MemoryError("Unable to allocate 3 GiB for an array")
    monkeypatch.setattr(cli_run, "Judge", Exhausted)
    rc, _, err = _replay(_case_file(tmp_path, "[4, 16]"), capsys)
    assert rc == 2 and "Traceback" not in err
    assert err.strip().endswith("case.yaml: ran out of memory judging the case (its tensors alone "
                                "need 1.25 KiB)")


@pytest.mark.parametrize("case", [
    kl_case((2, 3)),
    kl_case((5, 4), dtype="FLOAT16", target_shape=(4,)),
    kl_case((3, 4), out=t((3, 4), strides=(8, 2), offset=3)),
    kl_case((0, 4), dtype="BFLOAT16"),
])
def test_storage_bytes_is_what_materialize_allocates(case):
    specs = shipped_specs()
    m = materialize(case, specs)
    assert storage_bytes(case, specs) == sum(s.nbytes for s in m.storages().values())


def test_human_bytes():
    assert [human_bytes(n) for n in (0, 88, 1023, 1024, 1536, 3 * 2**30, 4 * 10**15)] == [
        "0 bytes", "88 bytes", "1023 bytes", "1 KiB", "1.5 KiB", "3 GiB", "3.55 PiB"]

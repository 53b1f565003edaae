"""Build the C test double of the aclnn ABI (this directory's .c files) into one shared library.

``build_double(out_dir, defines)`` compiles it with the system C compiler; ``double_lib`` is the
pytest-side helper: one build per variant per test session, shared by the xdist workers, and a
clean skip where there is no compiler.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from requirements import missing

SOURCES = Path(__file__).parent
LIBRARY = "libfake_aclnn.so"
# -fvisibility=hidden: only the ABI (FAKE_API) is exported, so the internal calls of one variant
# never bind to another variant loaded into the same process with RTLD_GLOBAL.
FLAGS = ("-shared", "-fPIC", "-O1", "-std=c99", "-Wall", "-Werror", "-fvisibility=hidden")
BUGS = ("BUG_PAD_LIMIT", "BUG_NULL_CODE", "BUG_OOB_WRITE", "BUG_PHASE2", "BUG_BATCHMEAN",
        "BUG_SEGV_SHAPE", "BUG_RP1D_BF16", "BUG_MSE_MEAN", "BUG_MSE_OUT_SAME",
        "BUG_SL1_MEAN_SELF", "BUG_LIST_FIRST_DTYPE")


def compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc")


def build_double(out_dir: Path, defines: tuple[str, ...] = (), without: tuple[str, ...] = ()) -> Path:
    """Compile every .c file here (but those named in ``without``: a library implementing fewer
    operators) into ``out_dir/libfake_aclnn.so`` with ``-D`` each define.

    The library is written under a temporary name and renamed, so concurrent builds of the same
    variant (xdist workers) never see a half-written file.
    """
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler (cc or gcc) on PATH")
    unknown = [d for d in defines if d not in BUGS]
    if unknown:
        raise ValueError(f"unknown defines {unknown} (known: {', '.join(BUGS)})")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / LIBRARY
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=out_dir)
    os.close(fd)
    sources = sorted(str(p) for p in SOURCES.glob("*.c") if p.name not in without)
    command = [cc, *FLAGS, *(f"-D{d}" for d in defines), "-o", tmp, *sources, "-lm"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        os.unlink(tmp)
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr}")
    os.replace(tmp, target)
    return target


def _key(defines: tuple[str, ...], without: tuple[str, ...] = ()) -> str:
    """The variant's build directory: its defines, the sources left out and a digest of the
    sources and flags."""
    digest = hashlib.sha256(" ".join((*FLAGS, *defines, "without", *without)).encode())
    for path in sorted(SOURCES.glob("*.[ch]")):
        digest.update(path.read_bytes())
    name = [*(defines or ("correct",)), *(f"no-{Path(w).stem}" for w in without)]
    return "-".join(name).lower() + "-" + digest.hexdigest()[:12]


def double_lib(tmp_path_factory: pytest.TempPathFactory, *defines: str,
               without: tuple[str, ...] = ()) -> Path:
    """The built variant (cached for the session, across xdist workers); skips without a compiler.
    ``without`` names .c files left out (a library missing those operators' symbols)."""
    if compiler() is None:
        missing("cc", "no C compiler (cc or gcc): cannot build the aclnn test double")
    unknown = [w for w in without if not (SOURCES / w).is_file()]
    if unknown:
        raise ValueError(f"without: no such source {unknown} in {SOURCES}")
    root = tmp_path_factory.getbasetemp()
    shared = root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root  # xdist: one per run
    out_dir = shared / "aclnn_double" / _key(tuple(defines), tuple(without))
    target = out_dir / LIBRARY
    return target if target.is_file() else build_double(out_dir, tuple(defines), tuple(without))

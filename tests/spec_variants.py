"""Shipped specs edited with yaml into small variants, for the spec-comparison tests
(test_spec_compare.py by meaning and clause id, test_spec_compare_cli.py through the command):
one place for the operators they use and the way a variant is written."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from conformance.spec.compare import compare
from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, read_operator, specs_dir

VOCAB = load_vocabulary(specs_dir() / VOCABULARY_FILE)
MSE, KLB, NLL, RP3 = ("aclnnMseLossBackward", "aclnnKlDivBackward", "aclnnNLLLossBackward",
                      "aclnnReplicationPad3dBackward")
INVALID, NULLPTR = "ACLNN_ERR_PARAM_INVALID", "ACLNN_ERR_PARAM_NULLPTR"
MSE_TENSORS = ("gradOutput", "self", "target", "out")


def shipped(api: str) -> dict[str, Any]:
    return yaml.safe_load((specs_dir() / f"{api}.yaml").read_text(encoding="utf-8"))


def write(directory: Path, data: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{data['api']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def variant(tmp_path: Path, api: str, edit: Callable[[dict[str, Any]], None], side: str = "new") -> Path:
    data = shipped(api)
    edit(data)
    return write(tmp_path / side, data)


def clause(data: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in data["constraints"] if c["id"] == cid)


def diff_of(tmp_path: Path, api: str, edit: Callable[[dict[str, Any]], None]):
    return compare(read_operator(specs_dir() / f"{api}.yaml", VOCAB),
                   read_operator(variant(tmp_path, api, edit), VOCAB))

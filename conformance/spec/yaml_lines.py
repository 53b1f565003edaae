"""Load YAML keeping the line of every node, so errors can name the line of a bad field."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from conformance.errors import ConformanceError

Path_ = tuple[Any, ...]
#: libyaml's parser where PyYAML was built with it (ten times the pure-Python one's speed; every
#: process of a run, xdist workers too, reads every spec); the nodes and their marks are the same.
_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LocatedYaml:
    """A loaded YAML document plus the 1-based line of each node, keyed by its path of keys/indices."""

    def __init__(self, data: Any, lines: dict[Path_, int], file: str) -> None:
        self.data = data
        self.lines = lines
        self.file = file

    def line_of(self, path: Path_) -> int | None:
        """The line of the deepest existing node on ``path`` (a missing key reports its parent)."""
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path)


def load_yaml(path: str | Path, error: type[ConformanceError] = ConformanceError,
              text: str | None = None) -> LocatedYaml:
    """Parse ``path`` (or ``text``) with safe YAML; syntax errors become ``error`` with the line."""
    name = str(path)
    try:
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        node = _compose(text)
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror or exc}", file=name) from None
    except UnicodeDecodeError:
        raise error("not a UTF-8 text file", file=name) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise error(f"YAML syntax error: {exc.problem or exc.context}", file=name, line=line) from None
    except yaml.YAMLError as exc:
        raise error(f"YAML error: {exc}", file=name) from None
    lines: dict[Path_, int] = {}
    if node is None:
        return LocatedYaml(None, lines, name)
    try:
        data = _construct(node, (), lines)
    except _DuplicateKey as exc:
        raise error(exc.args[0], file=name, line=exc.args[1]) from None
    except yaml.YAMLError as exc:
        raise error(f"YAML error: {exc}", file=name) from None
    return LocatedYaml(data, lines, name)


def _compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_FAST)
    except yaml.YAMLError:  # the pure-Python parser's message and line (libyaml's can differ)
        return yaml.compose(text, Loader=yaml.SafeLoader)


class _DuplicateKey(Exception):
    pass


def _construct(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> Any:
    lines.setdefault(path, node.start_mark.line + 1)  # a mapping key's line wins over its value's
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = yaml.SafeLoader(" ").construct_object(key_node, deep=True)
            if key in out:
                raise _DuplicateKey(f"duplicate key {key!r}", key_node.start_mark.line + 1)
            lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = _construct(value_node, path + (key,), lines)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(child, path + (i,), lines) for i, child in enumerate(node.value)]
    return yaml.SafeLoader(" ").construct_object(node, deep=True)

"""A spec's generate section and break entries are checked at load: one clear error each."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.errors import SpecError
from conformance.generate.dry_run import load_operator
from conformance.spec.loader import specs_dir

RP_SPEC = (specs_dir() / "aclnnReplicationPad3dBackward.yaml").read_text(encoding="utf-8")


def _error(specs, old: str, new: str) -> SpecError:
    assert old in RP_SPEC
    with pytest.raises(SpecError) as info:
        load_operator(Path("bad.yaml"), specs.vocabulary, text=RP_SPEC.replace(old, new, 1))
    return info.value


def test_unknown_draw_op(specs):
    err = _error(specs, "rank: {integers: [4, 5]}", "rank: {integer: [4, 5]}")
    assert err.field == "generate" and "draw 'rank' needs exactly one of integers" in str(err)


def test_expression_naming_a_later_draw(specs):
    err = _error(specs, "rank: {integers: [4, 5]}", "rank: {integers: [4, shape]}")
    assert "draw 'rank'" in str(err) and "shape" in str(err)


def test_args_must_cover_every_parameter(specs):
    err = _error(specs, ", gradInput: shape}", "}")
    assert "missing gradInput" in str(err)


def test_break_mode_must_exist(specs):
    err = _error(specs, "break: {padding: {mode: above}}", "break: {padding: {mode: sideways}}")
    assert "draw 'padding' cannot be broken in mode 'sideways' (modes: above, negative)" in str(err)


def test_break_must_name_a_draw(specs):
    err = _error(specs, "break: {padding: {mode: above}}", "break: {pading: {mode: above}}")
    assert "break names unknown draw 'pading'" in str(err)


def test_coded_expression_clause_needs_a_break(specs):
    err = _error(specs, "    break: {padding: {mode: above}}\n", "")
    assert "RP-PAD-LIMIT has a status code but no 'break'" in str(err)
    assert err.line is not None


def test_unknown_view_layout(specs):
    err = _error(specs, "views: [strided,", "views: [diagonal,")
    assert err.field == "generate.views[0]" and err.line is not None
    assert "'diagonal' is not one of strided, transposed, offset, stride0" in str(err)

"""CONFORMANCE_REQUIRE turns the skip of a missing tool into a failure (CI sets it)."""
from __future__ import annotations

import pytest
from requirements import REQUIRE_ENV, import_or_skip

ABSENT = "conformance_no_such_module"


def test_a_missing_tool_skips_unless_required(monkeypatch):
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"{ABSENT} is not installed"):
        import_or_skip(ABSENT)
    for names in (f"torch,{ABSENT}", "all"):
        monkeypatch.setenv(REQUIRE_ENV, names)
        with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_ENV} requires {ABSENT}"):
            import_or_skip(ABSENT)
    assert import_or_skip("json").dumps([1]) == "[1]"

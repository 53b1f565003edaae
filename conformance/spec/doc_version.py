"""A spec's ``doc_version``: which version of the documents it encodes (a release, or a page's
revision and date), read from the spec file."""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from conformance.errors import SpecError
from conformance.spec.model import DocVersion


def bare_dates(data: Any) -> None:
    """``doc_version.date`` as a string: YAML reads a bare 2025-12-25 as a date, which the schema
    (a string) would refuse though the user wrote what it asks for."""
    version = data.get("doc_version") if isinstance(data, dict) else None
    if isinstance(version, dict) and isinstance(version.get("date"), dt.date):
        version["date"] = version["date"].isoformat()


def doc_version(raw: dict[str, Any], fail: Callable[..., SpecError]) -> DocVersion:
    """The schema-valid ``doc_version`` mapping as a ``DocVersion``; its date must be a real day."""
    if "date" in raw:
        try:
            dt.date.fromisoformat(raw["date"])
        except ValueError:
            raise fail(f"{raw['date']!r} is not a date (YYYY-MM-DD)", "doc_version", "date") from None
    return DocVersion(**raw)

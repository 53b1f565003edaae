"""How the report page writes values: anchors, dates, durations, numbers and case arguments."""
from __future__ import annotations

import datetime as dt
import json
import math
import re
from typing import Any


def slug(*parts: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_.]+", "-", p).strip("-") for p in parts)


def fmt_date(text: str | None) -> str:
    if not text:
        return ""
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return text
    if when.tzinfo is not None:
        when = when.astimezone(dt.timezone.utc)
        return when.strftime("%Y-%m-%d %H:%M:%S UTC")
    return when.strftime("%Y-%m-%d %H:%M:%S")


def fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def to_float(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)  # "nan", "inf", "-inf"
        except ValueError:
            return None
    return None


def fmt_number(value: Any, digits: int | None = 6) -> str:
    """Numbers as the report means them: ints exact, floats to ``digits`` significant digits (None:
    the shortest text that reads back as the same float),
    ``[re, im]`` as a complex number, the strings ``nan``/``inf`` as they are, null as a dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if digits is None or not math.isfinite(value) else f"{value:.{digits}g}"
    if isinstance(value, list) and len(value) == 2:
        re_, im = (to_float(x) for x in value)
        if re_ is not None and im is not None:
            sign = "-" if im < 0 or (im == 0 and math.copysign(1, im) < 0) else "+"
            return f"{fmt_number(re_, digits)}{sign}{fmt_number(abs(im), digits)}j"
    return str(value)


def fmt_value(value: Any) -> str:
    """An argument of a case: strings as they are, everything else as JSON (null, true, [1, 2])."""
    return value if isinstance(value, str) else json.dumps(value)

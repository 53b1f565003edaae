"""The pieces of the vendor's phrasing that many readers share, each written once: a parameter's
name, a list of names, the words saying two things differ, the quote characters around a value.
"""
from __future__ import annotations

#: A parameter name (ASCII: ``\w`` would take Chinese text along).
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
#: Names joined as one subject: "x1、x2或者out", "self和other".
NAMES = rf"{NAME}(?:\s*(?:、|,|，|或者|或|和)\s*{NAME})*"
#: Two properties differ: "不一致", "不相同"... ("不等" but not "不等于", a value).
DIFFER = r"(?:不一致|不同|不相同|不相等|不一样|不匹配|不等(?!于))"
#: The quote characters the pages put around a string value ("…", “…”, '…', ‘…’).
QUOTES = "\"“”'‘’"
QUOTE = rf"[{QUOTES}]"

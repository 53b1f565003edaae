"""Drafting specs from aclnn documentation pages: read a page's facts (``reading``), turn them into
clauses and a spec (``clauses``), and count what was and was not read (``stats``)."""

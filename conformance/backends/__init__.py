"""Backends: the adapters the suite calls (reference, torch, and any third-party one)."""

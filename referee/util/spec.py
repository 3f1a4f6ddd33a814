"""This module reads the files of spec/ that the package ships as data (the rulebooks and the
JSON schemas), from the installed package or else from the source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def spec_text(name: str) -> str:
    """Read the spec file ``name`` from the installed package, or else from the checkout."""
    try:
        return resources.files("referee.spec").joinpath(name).read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):  # a source checkout, not installed
        return (Path(__file__).resolve().parents[2] / "spec" / name).read_text("utf-8")

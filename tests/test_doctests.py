"""The usage examples in the product's docstrings run: every module of appliance/ and vision/ whose
source has a ``>>>`` example is imported and its doctests are run (``appliance.games`` first)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules_with_examples() -> list[str]:
    """The dotted names of the product modules whose source holds a doctest example."""
    found = []
    for package in ("appliance", "vision"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " in path.read_text("utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(found, key=lambda name: (name != "appliance.games", name))


def test_the_engine_and_the_tables_have_examples():
    assert {"appliance.games", "appliance.table"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name}: no example found"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"

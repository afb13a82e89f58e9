"""No module imports upward: the import graph of appliance/ and vision/ (every import, the ones
inside functions included, and each imported module's parent packages) keeps the layers of
../shared/DESIGN.md and issue 14:

- the rules engine (``appliance.games``) imports nothing else of ``appliance``;
- the session speaks in events and problem codes: nothing of ``appliance.kiosk`` or ``appliance.i18n``
  reaches it, not even through another module;
- the games' homes above the engine (``appliance.table``) know nothing of the kiosk;
- ``vision`` knows nothing of ``appliance``;
- the frame sources and the synthetic table do not import each other both ways.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("appliance", "vision")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def product_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


MODULES = product_modules()


def _with_parents(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(MODULES)


def direct_imports(name: str) -> set[str]:
    """The product modules ``name`` imports anywhere in its source, with their parent packages."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text("utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # "from a.b import c": a.b, and a.b.c when c is a module
            targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for target in targets:
            found |= _with_parents(target)
    return found - {name}


GRAPH = {name: direct_imports(name) for name in MODULES}


def reachable(name: str) -> set[str]:
    """Every product module importing ``name`` may import, directly or through others."""
    seen, todo = set(), [name]
    while todo:
        for nxt in GRAPH[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen - {name}


def under(names, prefix: str) -> set[str]:
    return {n for n in names if n == prefix or n.startswith(prefix + ".")}


def test_the_graph_sees_the_lazy_imports():
    assert "vision.synth" in GRAPH["vision.sources"]  # open_source("synthetic") imports it when asked
    assert "appliance.kiosk.loop" in GRAPH["appliance.demo"]


@pytest.mark.parametrize("name", sorted(under(MODULES, "appliance.games")))
def test_the_engine_imports_nothing_above_it(name):
    assert under(GRAPH[name], "appliance") <= under(MODULES, "appliance.games") | {"appliance"}, name


def test_the_session_reaches_neither_the_kiosk_nor_the_languages():
    assert not under(reachable("appliance.session"), "appliance.kiosk")
    assert not under(reachable("appliance.session"), "appliance.i18n")


@pytest.mark.parametrize("name", sorted(under(MODULES, "appliance.table")))
def test_the_tables_know_nothing_of_the_kiosk(name):
    assert not under(reachable(name), "appliance.kiosk"), name


@pytest.mark.parametrize("name", sorted(under(MODULES, "vision")))
def test_vision_imports_nothing_of_the_appliance(name):
    assert not under(GRAPH[name], "appliance"), name


def test_the_sources_and_the_synthetic_table_do_not_import_each_other():
    sources = under(MODULES, "vision.sources")
    assert not (GRAPH["vision.synth"] & sources)

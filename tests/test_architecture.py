"""The shape of the package: no import cycles, and each layer imports only the layers below it.

The rules are those of the README's ARCHITECTURE section. Imports are read from the source (every ``import``
statement, also inside functions and under ``TYPE_CHECKING``), so a lazy import cannot hide a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "wsd"

#: What each part of the package may import from wsd (besides itself). Parts not listed here are the
#: entry points (``cli``, ``__init__``), which may import anything.
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    # every option, declared once: the stages read their defaults and choice lists from it
    "schema": set(),
    # the typed option objects of the Python API, their defaults read from the schema
    "options": {"schema"},
    "manifest": {"errors", "layout"},
    "atomic": {"errors", "manifest", "layout"},
    "textfiles": {"errors"},
    "layout": set(),
    # finding a run, its senses and its change folder from any folder of one layout (wsd change, wsd report)
    "locate": {"errors", "layout"},
    "lock": {"errors", "layout"},
    "outputs": {"manifest", "errors", "layout", "atomic", "lock"},
    "machine": set(),
    "occurrences": {"errors"},
    "store": {"manifest", "errors", "occurrences", "layout", "outputs", "atomic"},
    "executors": {"errors"},
    "corpus": {"manifest", "errors", "occurrences", "textfiles", "schema"},
    "embed": {"manifest", "errors", "machine", "store", "layout", "outputs", "atomic", "schema", "options"},
    "senses": {"manifest", "errors", "occurrences", "store", "layout", "outputs", "executors", "schema"},
    "evaluate": {"errors", "occurrences", "corpus", "textfiles", "atomic"},
    "report": {
        "manifest",
        "errors",
        "occurrences",
        "evaluate",
        "senses",
        "change",
        "store",
        "layout",
        "locate",
        "outputs",
        "schema",
    },
    "change": {
        "manifest",
        "errors",
        "occurrences",
        "evaluate",
        "store",
        "layout",
        "locate",
        "outputs",
        "atomic",
        "senses",
        "schema",
    },
    # the glue above the stages: scores documents, the evaluation runner, the end-to-end driver, the demo
    "results": {"errors", "evaluate", "store", "layout"},
    # training data for sense-aware encoders: reads datasets through evaluate, finds words with corpus.forms
    # and trains encoders on them with embed's windows, layers and pooling, writing model folders
    "tune": {
        "errors",
        "evaluate",
        "corpus",
        "textfiles",
        "embed",
        "machine",
        "atomic",
        "layout",
        "outputs",
        "store",
        "schema",
    },
    "config": {"errors", "senses", "layout", "atomic", "schema", "options"},
    "benchmark": {
        "options",
        "tune",
        "change",
        "errors",
        "config",
        "embed",
        "evaluate",
        "executors",
        "layout",
        "outputs",
        "results",
        "senses",
        "store",
    },
    "pipeline": {
        "options",
        "schema",
        "tune",
        "change",
        "errors",
        "occurrences",
        "corpus",
        "embed",
        "evaluate",
        "executors",
        "layout",
        "outputs",
        "report",
        "results",
        "senses",
        "store",
    },
    "demo": {"errors", "config", "corpus", "layout", "options", "pipeline", "report"},
    # the senses of sentences in one call (wsd.load): the scanner, the encoder and a fitted senses folder
    "tagger": {"errors", "corpus", "embed", "senses", "layout", "store"},
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """The wsd modules a source file imports, wherever the import statement stands."""
    found: set[str] = set()
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module name → the wsd modules it imports (itself excluded)."""
    files = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(files)
    return {name: _imports(path, known) - {name} for name, path in files.items()}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_the_graph_is_read_from_the_source() -> None:
    graph = import_graph()
    assert "wsd.cli" in graph and "wsd.embed.encoder" in graph
    assert "wsd.errors" in graph["wsd.store"]


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    assert _cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_part_imports_only_the_layers_below_it(part: str) -> None:
    graph = import_graph()
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if _part(module) == part
        for target in targets
        if _part(target) != part and _part(target) not in ALLOWED[part]
    )
    assert wrong == [], f"{part} may import only {sorted(ALLOWED[part])}"


def test_nothing_imports_the_cli() -> None:
    graph = import_graph()
    assert sorted(m for m, targets in graph.items() if "wsd.cli" in targets and _part(m) != "cli") == []

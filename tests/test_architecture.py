"""The shape of the package: no import cycles, and each layer imports only the layers below it.

The rules are the table of docs/contributing.md (Architecture). Imports are read from the source (every ``import``
statement, also inside functions and under ``TYPE_CHECKING``), so a lazy import cannot hide a cycle.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "wsd"

#: The rooms: folders of modules that are not one stage each. A module in a room is a part of its own
#: (``io.run_store``, ``workflows.pipeline``), with its own rule below; a stage package (``corpus``, ``embed``, ...) is
#: one part, whatever its modules.
ROOMS = {"io", "workflows"}

#: What stays loose at the top of the package: the public API (``__init__``) and what every room and stage shares.
TOP_LEVEL_MODULES = {
    "__init__",
    "_lazy",
    "errors",
    "schema",
    "options",
    "config",
    "machine",
    "executors",
    "occurrences",
}
#: The folders of the package: the command line, the rooms and the stages.
TOP_LEVEL_PACKAGES = {"cli", *ROOMS, "corpus", "embed", "senses", "evaluate", "change", "report", "tune"}

#: What each part of the package may import from wsd (besides itself). Parts not listed here are the
#: entry points (``cli``, ``__init__``), which may import anything.
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    # the public names a package imports on first use (wsd, wsd.tune): one __getattr__ for every lazy package
    "_lazy": set(),
    # every option, declared once: the stages read their defaults and choice lists from it
    "schema": set(),
    # the typed option objects of the Python API, each field the one declaration of its setting (wsd.schema.setting)
    "options": {"schema", "errors"},
    "machine": set(),
    "occurrences": {"errors"},
    "executors": {"errors"},
    # the input/output room: the names on disk, what wsd wrote, atomic writes, locks, destinations, runs, text files
    "io": set(),
    "io.layout": set(),
    "io.manifest": {"errors", "io.layout"},
    "io.atomic": {"errors", "io.manifest", "io.layout"},
    "io.textfiles": {"errors"},
    # finding a run, its senses and its change folder from any folder of one layout (wsd change, wsd report)
    "io.locate": {"errors", "io.layout"},
    "io.lock": {"errors", "io.layout"},
    "io.outputs": {"io.manifest", "errors", "io.layout", "io.atomic", "io.lock"},
    # a run, the folder wsd embed writes and wsd.load_run reads: what made a file, the checksummed writers, the
    # checksum records, the checks of a run's files, reading a run, writing one, and rows of its vectors by reference
    "io.provenance": set(),
    # the shape of the metadata files (a run's and a senses folder's meta.json, change.json) and its check
    "io.meta_types": {"schema"},
    "io.recipe_stamp": {"errors", "io.layout", "schema"},
    "io.writers": {"io.atomic", "io.outputs"},
    "io.checksums": {"errors", "io.layout", "io.manifest", "io.meta_types", "io.provenance"},
    "io.run_checks": {"io.checksums", "io.layout", "io.meta_types"},
    "io.run_reader": {"errors", "io.layout", "io.meta_types", "io.run_checks", "io.textfiles", "occurrences"},
    "io.run_store": {
        "errors",
        "io.checksums",
        "io.layout",
        "io.manifest",
        "io.meta_types",
        "io.outputs",
        "io.provenance",
        "io.run_checks",
        "io.run_reader",
        "io.writers",
        "occurrences",
        "schema",
    },
    "io.rows": {"errors"},
    # the stages
    "corpus": {"io.manifest", "errors", "occurrences", "io.textfiles", "schema", "options"},
    "embed": {
        "io.manifest",
        "errors",
        "machine",
        "io.writers",
        "io.layout",
        "io.meta_types",
        "io.outputs",
        "io.atomic",
        "io.recipe_stamp",
        "schema",
        "options",
    },
    "senses": {
        "_lazy",
        "io.manifest",
        "errors",
        "occurrences",
        "io.atomic",
        "io.checksums",
        "io.provenance",
        "io.rows",
        "io.run_reader",
        "io.writers",
        "io.layout",
        "io.meta_types",
        "io.recipe_stamp",
        "io.outputs",
        "executors",
        "options",
        "schema",
    },
    "evaluate": {"errors", "occurrences", "corpus", "io.textfiles", "io.atomic"},
    "report": {
        "io.manifest",
        "errors",
        "occurrences",
        "evaluate",
        "senses",
        "change",
        "io.atomic",
        "io.checksums",
        "io.run_reader",
        "io.layout",
        "io.locate",
        "io.meta_types",
        "io.outputs",
        "schema",
    },
    "change": {
        "io.manifest",
        "errors",
        "occurrences",
        "evaluate",
        "io.checksums",
        "io.provenance",
        "io.rows",
        "io.run_reader",
        "io.textfiles",
        "io.writers",
        "io.layout",
        "io.locate",
        "io.meta_types",
        "io.outputs",
        "io.atomic",
        "senses",
        "options",
        "schema",
    },
    # training data for sense-aware encoders: reads datasets through evaluate, finds words with corpus.forms
    # and trains encoders on them with embed's windows, layers and pooling, writing model folders
    "tune": {
        "_lazy",
        "errors",
        "evaluate",
        "corpus",
        "io.textfiles",
        "embed",
        "machine",
        "io.atomic",
        "io.layout",
        "io.outputs",
        "io.provenance",
        "io.recipe_stamp",
        "schema",
        "options",
    },
    "config": {"errors", "executors", "senses", "io.layout", "io.atomic", "io.recipe_stamp", "schema", "options"},
    # the workflows room, the glue above the stages: the scores document, the embedding driver, the whole job of
    # wsd run, the evaluation runners, the demo, the tagger of wsd.load
    "workflows": set(),
    "workflows.results": {"errors", "evaluate", "io.atomic", "io.provenance", "io.writers", "io.layout"},
    # auto's runtime and precision for a corpus job: the calibration with the senses' check (the same k on the demo
    # words), or the resumed run's recorded choice
    "workflows.calibration": {"embed", "errors", "io.layout", "io.run_reader", "options", "senses"},
    # embed_corpus: a corpus becomes a run, shard by shard, on any executor
    "workflows.embedding": {
        "options",
        "schema",
        "errors",
        "corpus",
        "embed",
        "executors",
        "io.layout",
        "io.meta_types",
        "io.outputs",
        "io.recipe_stamp",
        "io.run_reader",
        "io.run_store",
        "senses",  # the context vector of the sense recipe a tuned model ships (wsd embed stores it)
        "workflows.calibration",
    },
    # induce_corpus: scan → embed → cluster → (score) → (change) → (report)
    "workflows.pipeline": {
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
        "io.layout",
        "io.outputs",
        "report",
        "workflows.results",
        "senses",
        "io.run_reader",
        "io.writers",
        "workflows.embedding",
        "workflows.naming",
    },
    # sense names from an inventory (--inventory wordnet:DIR): the inventory read through evaluate, its synsets
    # embedded with the run's encoder, the names given by senses.naming
    "workflows.naming": {"errors", "corpus", "embed", "evaluate", "senses"},
    # the wsd run job: a resolved configuration through induce_corpus, recorded as config.toml
    # the wsd run job; its summary names the proper-name flags (corpus.proper)
    "workflows.run": {"errors", "config", "corpus", "options", "workflows.pipeline"},
    "workflows.demo": {"errors", "config", "corpus", "io.layout", "options", "report", "workflows.run"},
    # the evaluation runner over labelled datasets and seeds; WUG data is scored on change too (workflows.wug)
    "workflows.vectors": {"config", "embed", "errors", "io.meta_types", "tune"},
    "workflows.benchmark": {
        "options",
        "tune",
        "change",
        "errors",
        "config",
        "embed",
        "evaluate",
        "executors",
        "io.layout",
        "io.outputs",
        "workflows.results",
        "senses",
        "io.run_store",
        "workflows.vectors",
        "workflows.wic",
        "workflows.wug",
    },
    # the wsd evaluate job of a resolved configuration, for the command and for wsd.evaluate_dataset alike
    "workflows.evaluation": {
        "config",
        "errors",
        "executors",
        "options",
        "report",
        "schema",
        "senses",
        "workflows.benchmark",
        "workflows.results",
    },
    # binary use pairs (WiC, MCL-WiC, AM2iCo): the pairs read as wic: training sources read them, scored by cosine
    "workflows.wic": {"errors", "config", "embed", "evaluate", "tune", "workflows.results", "workflows.vectors"},
    "workflows.wug": {
        "change",
        "schema",
        "errors",
        "config",
        "embed",
        "evaluate",
        "executors",
        "io.layout",
        "workflows.results",
        "senses",
        "io.atomic",
        "io.run_store",
        "workflows.vectors",
        "workflows.usage_pairs",
    },
    # how a WUG set's vectors follow its usage-pair judgments: the judgments read as wug: training sources read them
    "workflows.usage_pairs": {"errors", "evaluate", "senses", "tune"},
    # the senses of sentences in one call (wsd.load): the scanner, the encoder and a fitted senses folder
    # and from labelled examples (SenseTagger.from_examples: the generic reader, the few-shot classifiers); the
    # encoder a saved folder names is made as the naming makes a run's (workflows.naming.encoder_from_meta)
    "workflows.tagger": {
        "workflows.naming",
        "errors",
        "corpus",
        "embed",
        "evaluate",
        "occurrences",
        "schema",
        "senses",
        "io.layout",
        "io.run_reader",
    },
    # wsd predict --examples --data --out: label, score (evaluate's disambiguation metrics), write the output folder
    "workflows.fewshot": {
        "errors",
        "embed",
        "evaluate",
        "occurrences",
        "schema",
        "senses",
        "io.layout",
        "io.outputs",
        "io.provenance",
        "io.writers",
        "workflows.tagger",
    },
}

#: The entry points: they may import anything, and nothing imports the command line.
ENTRY_POINTS = {"cli", "__init__"}


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


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Module name → the wsd modules it imports (itself excluded); read once per test session."""
    files = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(files)
    return {name: _imports(path, known) - {name} for name, path in files.items()}


def _part(module: str) -> str:
    """The part a module belongs to: its stage package, or ``room.module`` for a module in a room."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    if parts[1] in ROOMS and len(parts) > 2:
        return f"{parts[1]}.{parts[2]}"
    return parts[1]


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
    assert "wsd.cli" in graph and "wsd.cli.run" in graph and "wsd.embed.encoder" in graph
    assert "wsd.errors" in graph["wsd.io.run_store"]
    assert "wsd.workflows.pipeline" in graph["wsd.workflows.run"]


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
    importers = [m for m, targets in graph.items() if any(_part(t) == "cli" for t in targets) and _part(m) != "cli"]
    assert sorted(importers) == []


def test_a_module_in_a_room_is_a_part_of_its_own() -> None:
    assert _part("wsd.io.run_store") == "io.run_store"
    assert _part("wsd.workflows.pipeline") == "workflows.pipeline"
    assert _part("wsd.io") == "io"
    assert _part("wsd.embed.encoder") == "embed"
    assert _part("wsd.cli.run") == "cli"
    assert _part("wsd") == "__init__"


def test_every_part_has_a_rule() -> None:
    """A new module in a room, or a new top-level module, gets its row in ALLOWED (or is an entry point)."""
    parts = {_part(module) for module in import_graph()}
    assert sorted(parts - set(ALLOWED) - ENTRY_POINTS) == []
    assert sorted(set(ALLOWED) - parts) == [], "a rule for a part that is gone"


def test_nothing_loose_at_the_top_of_the_package() -> None:
    """The folders show the tiers: only the shared modules stay at wsd/'s top; the rest lives in a room or stage."""
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert modules == TOP_LEVEL_MODULES
    assert packages == TOP_LEVEL_PACKAGES

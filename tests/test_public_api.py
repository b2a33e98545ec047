"""The names ``import wsd`` gives: typed for type checkers, the same as the lazy imports, and on the API page."""

from __future__ import annotations

import ast
from pathlib import Path

import wsd

ROOT = Path(__file__).resolve().parents[1]


def _type_checking_imports() -> dict[str, str]:
    """``name -> module`` of the imports under ``if TYPE_CHECKING:`` in ``wsd/__init__.py``.

    A lazy name is the module's own name for it (the table says only the module), so no import renames it.
    """
    tree = ast.parse((ROOT / "wsd" / "__init__.py").read_text(encoding="utf-8"))
    block = next(
        node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    )
    imports = [
        (node.module or "", alias) for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names
    ]
    assert [alias.asname for _, alias in imports if alias.asname not in (None, alias.name)] == []
    return {alias.name: module for module, alias in imports}


def test_type_checkers_see_every_lazy_name_from_its_module() -> None:
    assert _type_checking_imports() == wsd._LAZY


def test_every_lazy_name_imports_and_all_lists_them() -> None:
    assert sorted(wsd.__all__) == sorted(["__version__", *wsd._LAZY])
    for name, module in wsd._LAZY.items():
        assert getattr(wsd, name).__name__ == name, module


def test_the_api_page_documents_every_public_name() -> None:
    page = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    documented = {line.removeprefix(":::").strip() for line in page.splitlines() if line.startswith(":::")}
    public = sorted(f"{module}.{name}" for name, module in wsd._LAZY.items())
    assert [name for name in public if name not in documented] == []

"""The code's shape, read from its own imports (issue 23): no import cycle, no private name
taken from another module, at most a dozen modules in a folder and 600 lines in a module, and
an engine that imports nothing of the web (Flask, WTForms, WeasyPrint, SQLAlchemy, Babel)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee"
MODULES_IN_A_FOLDER = 12
LINES_IN_A_MODULE = 600
WEB_LIBRARIES = ("flask", "flask_wtf", "flask_htmx", "flask_babel", "wtforms", "weasyprint",
                 "sqlalchemy", "babel", "werkzeug", "jinja2", "markupsafe")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (read by mypy, never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def imports(name: str) -> Iterator[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every import in module
    ``name``, at its top or inside a function; a relative import resolved."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    skipped = type_checking_only(tree)
    package = name if is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:           # ``from . import x``: the module x
                    yield submodule, None, node.lineno
                else:
                    yield base, alias.name, node.lineno


def edges() -> dict[str, set[str]]:
    """Each module of referee and the modules of referee it imports."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for imported, _, _ in imports(name):
            if imported in MODULES and imported != name:
                graph[name].add(imported)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle() -> None:
    assert cycles(edges()) == []


def test_the_cycle_finder_finds_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_taken_from_another_module() -> None:
    taken = []
    for name in MODULES:
        for imported, what, line in imports(name):
            if (imported.startswith("referee") and what is not None and what.startswith("_")
                    and not what.startswith("__")):
                taken.append(f"{MODULES[name].relative_to(ROOT)}:{line}: {what} of {imported}")
        # ``module._name`` of a module of referee imported whole
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and any(imported in MODULES and imported.endswith(aliases[node.value.id])
                            for imported, _, _ in imports(name))):
                taken.append(f"{MODULES[name].relative_to(ROOT)}:{node.lineno}: "
                             f"{node.value.id}.{node.attr}")
    assert taken == [], taken


@pytest.mark.parametrize("folder", sorted({path.parent for path in MODULES.values()}),
                         ids=lambda folder: str(folder.relative_to(ROOT)))
def test_a_folder_holds_at_most_a_dozen_modules(folder: Path) -> None:
    assert len(list(folder.glob("*.py"))) <= MODULES_IN_A_FOLDER


def test_no_module_is_longer_than_600_lines() -> None:
    long = {str(path.relative_to(ROOT)): lines for path in MODULES.values()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LINES_IN_A_MODULE}
    assert long == {}


def test_the_engine_imports_nothing_of_the_web() -> None:
    found = [f"{MODULES[name].relative_to(ROOT)}:{line}: {imported}"
             for name in MODULES if name.startswith("referee.engine")
             for imported, _, line in imports(name)
             if imported.split(".")[0] in WEB_LIBRARIES or imported.startswith("referee.web")]
    assert found == []


def test_every_package_says_what_lives_there() -> None:
    for name in MODULES:
        if is_package(name):
            doc = ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8")))
            assert doc, f"{MODULES[name].relative_to(ROOT)} has no docstring"

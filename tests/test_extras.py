"""What serving installs is enough for every installed command: no module of the package
imports a module that only the test extra brings (`make serve` installs the web extra alone,
and `tarocchi bench` runs there)."""

from __future__ import annotations

import ast

from tests.test_layers import modules

# the test extra's modules that the web extra does not bring as well
TEST_ONLY = ("httpx", "hypothesis", "playwright", "pytest", "schemathesis", "xdist", "mypy", "ruff")


def imported(tree: ast.AST) -> set[str]:
    """Return the top-level names of every module a module imports, anywhere in its body."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.partition(".")[0])
    return out


def test_no_installed_module_needs_the_test_extra() -> None:
    found = {
        name: sorted(imported(ast.parse(path.read_text())) & set(TEST_ONLY))
        for name, path in modules().items()
    }
    assert {name: mods for name, mods in found.items() if mods} == {}

"""The layers: each module imports only from its own layer and the layers above it, and no
two modules import each other, directly or round a loop (docs/architecture.md).

Every import statement counts, at the top of a module or inside a function: a
function-local import that goes back up the layers is the same cycle, only hidden.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
# the layers, top first; a module belongs to the first whose prefix it has
LAYERS = (
    ("tarocchi.i18n",),
    ("tarocchi.cards", "tarocchi.packs", "tarocchi.compiled"),
    ("tarocchi.games",),
    ("tarocchi.views",),
    ("tarocchi.bots",),
    (
        "tarocchi.match",
        "tarocchi.arena",
        "tarocchi.arena_ray",
        "tarocchi.record",
        "tarocchi.bench",
        "tarocchi.review",
        "tarocchi.review_explain",
        "tarocchi.stability",
        "tarocchi.progress",
        "tarocchi.daily",
    ),
    (
        "tarocchi.cli",
        "tarocchi.terminal",
        "tarocchi.terminal_review",
        "tarocchi.remote",
        "tarocchi.web",
        "tarocchi.adapters",
    ),
    ("tarocchi.catalogs",),  # the maintainer tool (`make messages`): nothing serves it
)


def modules() -> dict[str, Path]:
    """Return every module of the package by its dotted name."""
    out = {}
    for path in (SRC / "tarocchi").rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def layer(module: str) -> int:
    """Return the layer of a module (the package's own __init__: the public API, last)."""
    for i, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    assert module == "tarocchi", module
    return len(LAYERS)


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Return the package modules a module imports, anywhere in its body."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for n in names:
            while n and n not in known:
                n = n.rpartition(".")[0]
            if n and n != name and n != "tarocchi":
                out.add(n)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_no_module_imports_from_a_layer_below_its_own() -> None:
    upward = [
        f"{m} imports {n}"
        for m, deps in graph().items()
        for n in deps
        if layer(n) > layer(m) and not n.startswith(m + ".")
    ]
    assert not upward


def test_no_import_cycles() -> None:
    g = graph()
    cycles = []
    for start in g:
        stack = [(start, [start])]
        seen = set()
        while stack:
            node, path = stack.pop()
            for n in g[node]:
                if n == start:
                    cycles.append(" -> ".join([*path, n]))
                elif n not in seen and not n.startswith(start + "."):
                    seen.add(n)
                    stack.append((n, [*path, n]))
    # a package's __init__ and its own submodules are one unit of import
    real = [c for c in cycles if not _within_a_package(c)]
    assert not real


def _within_a_package(cycle: str) -> bool:
    """Whether a cycle only runs between a package's __init__ and its own submodules."""
    names = cycle.split(" -> ")
    shortest = min(names, key=len)
    return all(n == shortest or n.startswith(shortest + ".") for n in names)


def test_the_web_does_not_import_the_maintainer_tools() -> None:
    g = graph()
    assert not [
        m
        for m, deps in g.items()
        if m.startswith("tarocchi.web") and any(d == "tarocchi.catalogs" for d in deps)
    ]

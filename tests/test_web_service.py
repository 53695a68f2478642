"""The web service speaks no HTTP: the game service, the workers' jobs, the domain errors
and the settings import no web framework, not even through the package modules they use
(their routes, in tarocchi.web.api and its friends, do the HTTP)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_layers import graph, modules

# the modules that must run, and be tested, without FastAPI or Starlette
SERVICE = (
    "tarocchi.web.service",
    "tarocchi.web.jobs",
    "tarocchi.web.errors",
    "tarocchi.web.settings",
    "tarocchi.web.driver",
)
FRAMEWORKS = ("fastapi", "starlette")


def outside_imports(path: Path) -> set[str]:
    """Return the top-level names of every module a source file imports, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.partition(".")[0])
    return out


def reach(start: str, g: dict[str, set[str]]) -> set[str]:
    """Return a module and every package module it imports, directly or not."""
    seen, todo = {start}, [start]
    while todo:
        for n in g[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    return seen


def test_the_service_modules_import_no_web_framework() -> None:
    g, paths = graph(), modules()
    assert set(SERVICE) <= set(paths)  # a renamed module fails here, not silently
    speaking = {
        f"{start} -> {m} imports {f}"
        for start in SERVICE
        for m in reach(start, g)
        for f in outside_imports(paths[m]) & set(FRAMEWORKS)
    }
    assert not speaking

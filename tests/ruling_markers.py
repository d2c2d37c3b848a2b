"""Which test functions check which rulings: their ``@pytest.mark.ruling(...)`` markers.

Read from the source of ``tests/test_*.py`` without importing it, so that the docs' coverage
page (``docs/_ext/pegs_docs.py``) and the traceability tests count the same thing: a test
function (or every test of a class) counts once for each ruling id its marker names, however
it is parametrised.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _ruling_ids(decorators: list[ast.expr]) -> list[str]:
    ids: list[str] = []
    for decorator in decorators:
        if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.ruling":
            ids += [
                a.value
                for a in decorator.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
    return ids


def marked_tests(folder: Path = TESTS) -> dict[str, tuple[str, ...]]:
    """Each marked test function, as ``file::name`` (``file::Class::name``), with its ids."""
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                shared = _ruling_ids(node.decorator_list)
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                        ids = shared + _ruling_ids(item.decorator_list)
                        if ids:
                            found[f"{path.name}::{node.name}::{item.name}"] = tuple(ids)
            elif isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                ids = _ruling_ids(node.decorator_list)
                if ids:
                    found[f"{path.name}::{node.name}"] = tuple(ids)
    return found


def marked_by_ruling(rulings: list[str], folder: Path = TESTS) -> dict[str, tuple[str, ...]]:
    """For each ruling id, the marked test functions that name it."""
    by_rule: dict[str, list[str]] = {rule: [] for rule in rulings}
    for test, ids in marked_tests(folder).items():
        for rule in dict.fromkeys(ids):
            by_rule.setdefault(rule, []).append(test)
    return {rule: tuple(tests) for rule, tests in by_rule.items()}

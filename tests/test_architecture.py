"""The house plan holds: the import-linter contracts in pyproject.toml, and no import cycle
anywhere in the package (imports inside functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee"


def test_the_import_linter_contracts_are_kept():
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                        no_logo=True) == 0


def _imports_of(path: Path, module: str) -> set[str]:
    """Every referee module that ``module`` imports, at any depth of its code."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("referee"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            if base.startswith("referee"):
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return {name: {m for m in _imports_of(path, name) if m in modules and m != name}
            for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
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


def test_no_module_imports_itself_through_others():
    graph = _graph()
    # a package's __init__ is imported by every module inside it; the plan is about modules
    for name in graph:
        graph[name] = {m for m in graph[name] if not name.startswith(m + ".")}
    assert _cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_the_proofs_layer_names_z3():
    outside = []
    for path in PACKAGE.rglob("*.py"):
        if "proofs" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "z3" or n.startswith("z3.") for n in names):
                outside.append(str(path.relative_to(ROOT)))
    assert outside == []


def test_every_kind_is_a_named_constant_of_the_code_table():
    from referee.judge import codes

    named = {value for name, value in vars(codes).items()
             if name.isupper() and isinstance(value, str) and value in codes.BY_KIND}
    assert named == set(codes.KINDS)
    for kind in codes.KINDS:
        assert getattr(codes, kind.upper().replace("-", "_")) == kind


def test_no_module_writes_a_kind_as_a_bare_string():
    from referee.judge.codes import KINDS

    # generated-game case names ("game-end", "tie", ...) are not diagnostic kinds
    exempt = {PACKAGE / "judge" / "codes.py", PACKAGE / "conformance" / "generate.py",
              PACKAGE / "conformance" / "gamestats.py"}
    bare = []
    for path in sorted(set(PACKAGE.rglob("*.py")) - exempt):
        tree = ast.parse(path.read_text("utf-8"))
        in_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                       for part in node.values}
        in_fstrings |= {id(node.value) for node in ast.walk(tree)  # want="game-end": a case
                        if isinstance(node, ast.keyword) and node.arg == "want"}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and node.value in KINDS
                    and id(node) not in in_fstrings):
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert bare == [], "name these with referee.judge.codes constants"


MAX_COMPLEXITY = 25  # radon's cyclomatic complexity, per function


def test_no_function_is_too_complex_to_follow():
    from radon.complexity import cc_visit

    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for block in cc_visit(path.read_text("utf-8")):
            if block.complexity > MAX_COMPLEXITY:
                offenders.append(f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} "
                                 f"({block.complexity})")
    assert offenders == []


"""Every diagnostic cites a clause that `referee explain` shows for its code, and the rulebook
defines it: on the whole example corpus, and for every clause the source can cite."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.judge import codes
from referee.judge.codes import BY_KIND
from referee.cli import main
from referee.run.single import check_path
from referee.rules.rulebook import clause, clause_plain

ROOT = Path(__file__).resolve().parents[1]
CORPUS = sorted((ROOT / "examples" / "logs").glob("*.log")) + sorted(
    (ROOT / "examples" / "corpus").glob("*.log"))
KIND_NAMES = {name for name, value in vars(codes).items()
              if name.isupper() and isinstance(value, str) and value in BY_KIND}


def explained(code: str, capsys) -> str:
    assert main(["explain", code]) == 0
    return capsys.readouterr().out


def test_the_corpus_is_there():
    assert len(CORPUS) >= 50


@pytest.mark.parametrize("invariants", [False, True], ids=["plain", "invariants"])
def test_every_diagnostic_of_the_corpus_cites_a_clause_explain_quotes(invariants, capsys):
    cited: set[tuple[str, str]] = set()
    for path in CORPUS:
        for diag in check_path(path, invariants=invariants).diagnostics:
            assert diag.rule in BY_KIND[diag.kind].clauses, (path.name, diag)
            cited.add((diag.code, diag.rule))
    assert len(cited) >= 15  # the corpus exercises most kinds
    for code, rule in sorted(cited):
        text = clause(rule)
        assert text, f"{code} cites {rule}, which spec/rules.md lacks"
        out = explained(code, capsys)
        assert f"\nRule {rule} (spec/rules.md" in out and clause_plain(rule) in out, (code, rule)


def test_every_clause_of_every_kind_is_in_the_rulebook():
    for code in codes.all_codes():
        assert code.clauses[0] == code.clause
        assert len(set(code.clauses)) == len(code.clauses), code.code
        for cited in code.clauses:
            assert clause(cited), f"{code.code} may cite {cited}, which spec/rules.md lacks"


# ---- the clauses the source can cite, found where it cites them ------------------------------

def _kind(node: ast.expr) -> str | None:
    """The kind a call's first argument names: ``codes.REVOKE`` or an imported ``SYNTAX``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "codes" and node.attr in KIND_NAMES:
        return getattr(codes, node.attr)
    if isinstance(node, ast.Name) and node.id in KIND_NAMES:
        return getattr(codes, node.id)
    return None


def _strings_assigned(function: ast.AST, name: str) -> set[str]:
    return {node.value.value for node in ast.walk(function)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)}


def _citations() -> list[tuple[str, str, str]]:
    """(where, kind, clause) for every diagnostic the package makes with a named kind and a
    ``rule=`` it spells out, or assigns in the same function; no ``rule=``: the default."""
    found, unread = [], []
    for path in sorted((ROOT / "referee").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            kind = _kind(node.args[0])
            rule = next((k.value for k in node.keywords if k.arg == "rule"), None)
            if kind is None or rule is None:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(rule, ast.Constant):
                found.append((where, kind, rule.value))
            elif isinstance(rule, ast.Name):
                inside = [f for f in functions if f.lineno <= node.lineno <= f.end_lineno][-1]
                values = _strings_assigned(inside, rule.id)
                assert values, f"{where}: rule={rule.id} is assigned no clause here"
                found += [(where, kind, value) for value in values]
            elif ast.unparse(rule) not in ("fault.clause", "law.clause"):  # both tested below
                unread.append(where)
    assert unread == [], "teach this test where these rules come from"
    return found


def test_every_clause_the_source_cites_is_one_its_kind_may_cite():
    found = _citations()
    assert len(found) >= 40  # the scan sees the producers
    wrong = [(where, kind, rule) for where, kind, rule in found
             if rule not in BY_KIND[kind].clauses]
    assert wrong == []


def test_every_play_fault_cites_a_clause_of_the_kind_it_is_reported_as():
    from referee.judge.plays import FAULT_CODES

    for fault, kind in FAULT_CODES.items():
        assert fault.clause in BY_KIND[kind].clauses, (fault, kind)


def test_every_invariant_law_cites_a_clause_of_invariant():
    laws = []
    for path in sorted((ROOT / "referee" / "proofs").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "Law":
                laws.append(node.args[1].value)
    assert {"R2.4", "R5.4", "R7.2", "R7.4"} <= set(laws)
    assert set(laws) <= set(BY_KIND[codes.INVARIANT].clauses)


"""Every refusal names the rule it comes from (shared/rules/README.md: "the app refuses the entry
and names the broken rule").

The engine's source is walked with ``ast``: every ``RuleViolation(...)`` must pass a rule, never
``None``, and a rule that is a parameter of the enclosing function must be typed ``str`` (so
mypy makes every caller give one). A rule written out is a section number; the shared helpers
cite by default 6.1 (the facts of a hand), 1 (the pack, the players) and 8 (the variants), the
same sections in every game's rules.

Exempt, and only these: problems with the match file itself (codes ``file.*``, raised through
``matchfile._problem``) and a game name that names no game (``game.unknown``). They break no
game's rules but the match-file format of the README, and there is no game whose rules to cite.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from referee.engine.errors import FACTS, PACK
from referee.engine.games import base

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "referee" / "engine"
SECTION = re.compile(r"^[1-9]\d?(\.[1-9]\d?)*$")
EXEMPT_FACTORY = ("matchfile.py", "_problem")
# the circle file's own format (referee-circle): like the match file's, no game's rule to cite
EXEMPT_FACTORIES = {EXEMPT_FACTORY, ("circlefile.py", "_problem")}


def exempt(code: str) -> bool:
    return code.startswith("file.") or code == "game.unknown"


def engine_files() -> list[Path]:
    """The engine, and the games' web modules, whose refusals are shown the same way."""
    return sorted(ENGINE.rglob("*.py")) + sorted((ROOT / "referee" / "web" / "games").glob("*.py"))


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.FunctionDef | None:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef):
            return node
    return None


def _rule_argument(call: ast.Call) -> ast.expr | None:
    if len(call.args) >= 3:
        return call.args[2]
    return next((k.value for k in call.keywords if k.arg == "rule"), None)


def _is_none(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_none(node.body) or _is_none(node.orelse)
    return isinstance(node, ast.Constant) and node.value is None


def _literals(node: ast.expr) -> list[str]:
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []


def violations_without_rule(source: str, where: str) -> list[str]:
    """Every ``RuleViolation(...)`` in ``source`` (the file ``where``) that cites no rule, as
    ``where:line code: why``."""
    tree = ast.parse(source)
    parents = _parents(tree)
    problems = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "RuleViolation"):
            continue
        function = _function(node, parents)
        code = node.args[0] if node.args else None
        label = f"{where}:{node.lineno} {ast.unparse(code) if code else '?'}"
        if isinstance(code, ast.Constant) and isinstance(code.value, str) and exempt(code.value):
            continue
        if function is not None and (Path(where).name, function.name) in EXEMPT_FACTORIES:
            continue                  # checked by test_only_file_problems_go_through_the_factory
        rule = _rule_argument(node)
        if rule is None or _is_none(rule):
            problems.append(f"{label}: no rule")
            continue
        if isinstance(rule, ast.Name) and function is not None:
            params = {a.arg: a for a in function.args.args + function.args.kwonlyargs}
            param = params.get(rule.id)
            if param is not None and (
                param.annotation is None or "None" in ast.unparse(param.annotation)
            ):
                problems.append(f"{label}: the rule parameter {rule.id} may be None")
    return problems


def test_every_rule_violation_the_engine_raises_names_its_rule():
    problems = [
        problem for path in engine_files()
        for problem in violations_without_rule(
            path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert problems == []


def test_the_walk_finds_a_rule_violation_without_a_rule():
    """The walk itself: a refusal added without a rule (or with an optional one) is found."""
    source = (
        "def a(x):\n    raise RuleViolation('x.one', 'no rule')\n"
        "def b(x, rule: str | None = None):\n    raise RuleViolation('x.two', 'maybe', rule)\n"
        "def c(x, rule: str = '6.1'):\n    raise RuleViolation('x.three', 'fine', rule)\n"
        "def d(x):\n    raise RuleViolation('x.four', 'none', rule=None)\n"
        "def e(x):\n    raise RuleViolation('x.five', 'one way', '4.1' if x else None)\n"
        "def f(x):\n    raise RuleViolation('file.json', 'the file itself')\n"
    )
    found = violations_without_rule(source, "sample.py")
    assert [p.split(" ", 1)[1] for p in found] == [
        "'x.one': no rule", "'x.two': the rule parameter rule may be None",
        "'x.four': no rule", "'x.five': no rule",
    ]


def test_only_file_problems_go_through_the_factory():
    """``matchfile._problem`` cites no rule: it is for the file's own format only."""
    path = ENGINE / "matchfile.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    codes = [
        node.args[0] for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id == EXEMPT_FACTORY[1]
    ]
    assert codes
    wrong = [ast.unparse(c) for c in codes
             if not (isinstance(c, ast.Constant) and isinstance(c.value, str)
                     and exempt(c.value))]
    assert wrong == []


def test_every_rule_cited_is_a_section_number():
    """A rule written out, to a refusal or to a helper that refuses, is a section number such
    as ``6.3.6`` (shared/rules/<game>.md), never words."""
    helpers = {
        name: list(inspect.signature(f).parameters).index("rule")
        for name, f in vars(base).items()
        if name.startswith("require_") and callable(f)
        and "rule" in inspect.signature(f).parameters
    }
    cited: list[tuple[str, str]] = []
    for path in engine_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name == "RuleViolation":
                rule = _rule_argument(node)
            elif name in helpers:
                at = helpers[name]
                rule = node.args[at] if len(node.args) > at else next(
                    (k.value for k in node.keywords if k.arg == "rule"), None)
            else:
                continue
            if rule is not None:
                cited += [(f"{path.name}:{node.lineno}", r) for r in _literals(rule)]
    assert len(cited) > 100
    shared = [FACTS, PACK, base.PLAYERS, base.VARIANTS]
    assert [(where, rule) for where, rule in cited + [("shared", r) for r in shared]
            if not SECTION.match(rule)] == []

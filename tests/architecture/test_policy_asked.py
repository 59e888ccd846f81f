"""Every use case of the service that is given what Discord says of its caller (a
``policy.Standing``) asks the access policy with it (``policy.require``), itself or
through another use case it hands the standing to: a standing taken and never asked
would be a check that only looks done."""

from __future__ import annotations

import ast
import importlib

from bot.core import policy
from tests.architecture.house import ROOT, module_name, service_files

ASKS = {"require"}  # policy.require, or require imported from it


def _called(node: ast.AST) -> set[str]:
    out = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            out.add(func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else "")
    return out


def standing_takers() -> dict[str, tuple[str, set[str]]]:
    """Each function of the service with a parameter annotated as the policy's
    ``Standing`` (not another class of that name): its place and what it calls."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in service_files():
        if path.name == "policy.py":
            continue
        module = importlib.import_module(module_name(path))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                text = ast.unparse(arg.annotation) if arg.annotation is not None else ""
                ours = text == "policy.Standing" or (text == "Standing" and getattr(module, "Standing", None) is policy.Standing)
                if ours:
                    found[node.name] = (f"{path.relative_to(ROOT).as_posix()}:{node.lineno}", _called(node))
                    break
    return found


def test_the_scan_finds_the_use_cases_it_is_about() -> None:
    takers = standing_takers()
    assert {"join_game", "join_standby", "accept_offer", "replay_for", "board_for", "game_history", "table_view"} <= set(takers)
    assert "play" not in takers  # ratings' own Standing is another class


def all_calls() -> dict[str, set[str]]:
    """What each function of the service calls, by name (the table's use cases receive
    the standing with the request's place, ``Table.require``)."""
    found: dict[str, set[str]] = {}
    for path in service_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(node.name, set()).update(_called(node))
    return found


def test_every_use_case_given_a_standing_asks_the_policy() -> None:
    takers = standing_takers()
    calls_of = all_calls()
    asking = {name for name, calls in calls_of.items() if calls & ASKS}
    while True:  # or hands the standing to one that does
        more = {name for name, calls in calls_of.items() if calls & asking} - asking
        if not more:
            break
        asking |= more
    silent = sorted(where for name, (where, _) in takers.items() if name not in asking)
    assert silent == [], f"given a Standing, never asks the policy: {silent}"

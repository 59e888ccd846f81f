"""Scenario file errors: every problem names the field it is about.

Paths are written the way a moderator reads the file: ``players[2].class`` is the second
``[[players]]`` table (which is seat 2), and every list position counts from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the file: where, and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ScenarioError(Exception):
    """The scenario file cannot be run. Carries every problem found at one stage."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def one(cls, path: str, message: str) -> ScenarioError:
        return cls([Problem(path, message)])


def path_of(loc: Sequence[str | int]) -> str:
    """('players', 1, 'class') -> 'players[2].class' (list positions count from 1)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += f".{part}" if out else part
    return out


_TYPE_NAMES = {
    "int_type": "an integer",
    "int_from_float": "an integer",
    "string_type": "a string",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
}


def from_validation_error(exc: ValidationError) -> ScenarioError:
    """Turn pydantic's errors into problems with readable paths and messages."""
    problems: list[Problem] = []
    for err in exc.errors():
        loc = [p for p in err["loc"] if not _is_union_tag(p)]
        problems.append(Problem(path_of(loc), _message(err)))
    return ScenarioError(problems)


def _is_union_tag(part: str | int) -> bool:
    # pydantic inserts the union member's name ("int", "list[...]") into the location.
    return isinstance(part, str) and ("[" in part or part in ("int", "str", "bool", "none"))


def _message(err: Any) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "extra_forbidden":
        return "unknown field (see docs/scenario.md for the fields a scenario may have)"
    if kind == "missing":
        return "this field is required"
    if kind in _TYPE_NAMES:
        return f"expected {_TYPE_NAMES[kind]}, got {_show(given)}"
    if kind == "value_error":
        return str(err["msg"]).removeprefix("Value error, ")
    ctx = err.get("ctx", {})
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, got {_show(given)}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, got {_show(given)}"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} entries, got {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"takes at most {ctx.get('max_length')} entries, got {ctx.get('actual_length')}"
    if kind == "literal_error":
        expected = str(err.get("ctx", {}).get("expected", ""))
        return f"{_show(given)} is not one of {expected}"
    return f"{err['msg']} (got {_show(given)})"


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)

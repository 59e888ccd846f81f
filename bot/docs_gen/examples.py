"""Live output for ``docs/scenario.md``: the scenario tool run on the documented example
and on documented bad files, so the page always shows what the tool really prints.

Placeholders (see :mod:`bot.docs_gen.generate`): ``{{scenario.one}}`` one run of the
Warrior example with its own seed, ``{{scenario.many}}`` the same with 2000 runs,
``{{scenario.bad_shape}}`` / ``{{scenario.bad_rules}}`` the errors of two bad files
(whose text is shown by ``{{scenario.bad_shape_file}}`` / ``{{scenario.bad_rules_file}}``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "docs/examples/warrior-attacks-grail-carrier.toml"
REPEAT = 2000

BAD_SHAPE = """\
phase = "dusk"

[[players]]
class = "wizzard"
faction = "lawful"

[[players]]
class = "warrior"
faction = "neutral"
hp = "ten"
foo = 1
"""

BAD_TABLE = """\
phase = "dusk"

[[players]]
class = "monk"
faction = "neutral"
holds_grail = true

[[players]]
class = "warrior"
faction = "neutral"
hp = 12
holds_grail = true
states = { grappled = { source = 1 } }
"""

BAD_RULES = """\
phase = "dusk"

[[players]]
class = "warrior"
faction = "lawful"
orders = [{ skill = "attack", targets = [1] }]

[[players]]
class = "warrior"
faction = "neutral"
vote = 1
"""


def one_run() -> str:
    from bot.scenario import load, run_once, single_text

    sc = load(ROOT / EXAMPLE)
    return single_text(sc, sc.spec.seed, run_once(sc, sc.spec.seed), "en")


def many_runs() -> str:
    from bot.scenario import load, run_many, stats_text

    sc = load(ROOT / EXAMPLE)
    return stats_text(sc, run_many(sc, sc.spec.seed, REPEAT), "en")


def errors_of(text: str, name: str = "bad.toml") -> str:
    """The lines ``wolfhowl scenario bad.toml`` prints on standard error for ``text``."""
    from bot.scenario import ScenarioError, loads

    try:
        loads(text, name)
    except ScenarioError as exc:
        return "\n".join(f"{name}: {p}" for p in exc.problems)
    raise ValueError("the documented bad file is accepted: fix bot/docs_gen/examples.py")


PLACEHOLDERS = {
    "scenario.one": one_run,
    "scenario.many": many_runs,
    "scenario.bad_shape_file": lambda: BAD_SHAPE.rstrip(),
    "scenario.bad_shape": lambda: errors_of(BAD_SHAPE),
    "scenario.bad_table_file": lambda: BAD_TABLE.rstrip(),
    "scenario.bad_table": lambda: errors_of(BAD_TABLE),
    "scenario.bad_rules_file": lambda: BAD_RULES.rstrip(),
    "scenario.bad_rules": lambda: errors_of(BAD_RULES),
}

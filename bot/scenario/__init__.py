"""The scenario tool (``wolfhowl scenario``): a moderator's what-if.

A TOML file describes a table in the middle of a game (classes, factions, HP, states,
the grail, class memory, the round, phase and settings) and one phase's submissions.
:func:`load` checks it in three stages and names the field of every problem;
:func:`run_once` resolves the phase with the real engine, :func:`run_many` resolves it
over many seeds and counts the outcomes; :func:`single_text`, :func:`single_json` and
:func:`stats_text` write the results. Format: ``docs/scenario.md``.
"""

from bot.scenario.build import Scenario, load, loads
from bot.scenario.errors import Problem, ScenarioError
from bot.scenario.output import single_json, single_text, stats_text
from bot.scenario.run import Stats, run_many, run_once

__all__ = [
    "Problem",
    "Scenario",
    "ScenarioError",
    "Stats",
    "load",
    "loads",
    "run_many",
    "run_once",
    "single_json",
    "single_text",
    "stats_text",
]

"""Wolf Howl Tavern rules engine: pure, deterministic, no I/O.

State in, submissions in, a seed in -> new state and events out. The bot plays games
through what is exported here, and asks the rules' facts of it rather than keep its own:
the phases in order and what each asks (:mod:`engine.phases`: ``PHASE_ORDER``,
``PHASE_OF_KIND``, ``KINDS_TAKEN``, ``MAIN_KIND``, ``phase_before``, ``done_seats``), a
piece added to tonight's orders or identification (:mod:`engine.pieces`), a skill or a
guess as a player types it (:mod:`engine.names`: ``parse_skill``, ``parse_guess``). It
reads the value modules directly (:mod:`engine.view`:
what one seat may know, :mod:`engine.classes`: the class data, ``events``,
``submissions``, ``errors``: refusals as message keys and parameters, worded by the
bot), and the scenario tool and the rules-document generator also read the internals they stage or quote. Nothing here
imports the bot.
"""

from engine import rules
from engine.advance import Outcome, advance, end_game, remove_player
from engine.classes import ClassSpec, SkillSpec, catalogue, class_spec
from engine.dice import Dice, Roll
from engine.errors import RuleViolation
from engine.events import Audience, Event
from engine.health import WOUND_RECOVERY, wound_odds
from engine.model import (
    HOUSE_RULES,
    DeparturesRule,
    GameState,
    KillingBlowRule,
    Phase,
    Player,
    Settings,
    State,
    UnevenTablesRule,
    VoteDamageRule,
    VoteTieRule,
)
from engine.names import guess_values, parse_guess, parse_skill
from engine.phases import (
    KINDS_TAKEN,
    MAIN_KIND,
    PHASE_OF,
    PHASE_OF_KIND,
    PHASE_ORDER,
    done_seats,
    phase_before,
)
from engine.pieces import ActionPiece, GuessPiece, Piece, TogglePiece
from engine.setup import MAX_PLAYERS, MIN_PLAYERS, new_game
from engine.submissions import (
    RELEASE,
    Action,
    GrailNumber,
    Guess,
    Identification,
    Orders,
    Submission,
    Vote,
    seats_named,
    submission_from_dict,
)
from engine.uneven import start_events
from engine.validate import validate
from engine.values import Faction, Trait

__all__ = [
    "HOUSE_RULES",
    "KINDS_TAKEN",
    "MAIN_KIND",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PHASE_OF",
    "PHASE_OF_KIND",
    "PHASE_ORDER",
    "RELEASE",
    "WOUND_RECOVERY",
    "Action",
    "ActionPiece",
    "Audience",
    "ClassSpec",
    "DeparturesRule",
    "Dice",
    "Event",
    "Faction",
    "GameState",
    "GrailNumber",
    "Guess",
    "GuessPiece",
    "Identification",
    "KillingBlowRule",
    "Orders",
    "Outcome",
    "Phase",
    "Piece",
    "Player",
    "Roll",
    "RuleViolation",
    "Settings",
    "SkillSpec",
    "State",
    "Submission",
    "TogglePiece",
    "Trait",
    "UnevenTablesRule",
    "Vote",
    "VoteDamageRule",
    "VoteTieRule",
    "advance",
    "catalogue",
    "class_spec",
    "done_seats",
    "end_game",
    "guess_values",
    "new_game",
    "parse_guess",
    "parse_skill",
    "phase_before",
    "remove_player",
    "rules",
    "seats_named",
    "start_events",
    "submission_from_dict",
    "validate",
    "wound_odds",
]

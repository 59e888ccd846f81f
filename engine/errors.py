"""Typed rule errors. Each carries a message key and parameters, never a sentence: the bot
words them in the reader's language (``bot.i18n.refusals``), so it never shows a
traceback. A parameter is a plain value (a seat, a number, what someone typed), an id (a
skill's, a class's) or another message key (a reason, a phase, a faction)."""

from __future__ import annotations

from typing import Any


class RuleViolation(ValueError):
    """A submission or command the rules refuse. Nothing has changed when it is raised."""

    key = "error.rule"

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.key)

    def __str__(self) -> str:
        # For logs and tracebacks: the key and its parameters (the words are the bot's).
        given = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.key}({given})"


class WrongPhaseError(RuleViolation):
    key = "error.wrong_phase"


class GameOverError(RuleViolation):
    key = "error.game_over"


class NotInGameError(RuleViolation):
    key = "error.not_in_game"


class DeadPlayerError(RuleViolation):
    key = "error.dead"


class WoundedError(RuleViolation):
    key = "error.wounded"


class BadTargetError(RuleViolation):
    key = "error.bad_target"


class SelfTargetError(BadTargetError):
    key = "error.self_target"


class DeadTargetError(BadTargetError):
    key = "error.dead_target"


class OutOfRangeError(RuleViolation):
    key = "error.out_of_range"


class UnknownSkillError(RuleViolation):
    key = "error.unknown_skill"


class SkillUnavailableError(RuleViolation):
    key = "error.skill_unavailable"


class ActionEconomyError(RuleViolation):
    key = "error.actions"


class IdentificationError(RuleViolation):
    key = "error.identify"


class MalformedSubmissionError(RuleViolation):
    key = "error.malformed"


class OrderShapeError(MalformedSubmissionError):
    """An order whose targets or amount do not fit its action (too few, too many, twice
    the same, an amount where none is taken or none where one is needed)."""

    key = "error.order_shape"

"""Typed rule errors. Each carries a message key and parameters; ``text(locale)`` renders
it in English or Chinese from :mod:`engine.messages`, so the bot never shows a traceback."""

from __future__ import annotations

from typing import Any

from engine.messages import MESSAGES, language, render


class RuleViolation(ValueError):
    """A submission or command the rules refuse. Nothing has changed when it is raised."""

    key = "error.rule"

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.key)

    def __str__(self) -> str:
        # Rendered on demand: refusals are common in simulations and rarely printed.
        return self.text("en-US")

    def text(self, locale: str = "en-US") -> str:
        params = self.params
        skill = params.get("skill")
        if isinstance(skill, str):
            from engine.classes import skill_names  # (engine.classes imports this module)

            names = skill_names().get(skill)
            if names:
                params = {**params, "skill": names[language(locale)]}
            elif f"skill.{skill}" in MESSAGES:  # release: an order, not a class's skill
                params = {**params, "skill": f"skill.{skill}"}
        class_id = params.get("class_name")
        if isinstance(class_id, str):
            from engine.classes import catalogue

            spec = catalogue().get(class_id)
            if spec is not None:
                params = {**params, "class_name": spec.name[language(locale)]}
        return render(self.key, locale, **params)


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

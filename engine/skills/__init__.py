"""Skill behaviour, one module per class under :mod:`engine.skills.classes`."""

from engine.skills.base import Skill, hooks_for, skills_of

__all__ = ["Skill", "hooks_for", "skills_of"]

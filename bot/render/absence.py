"""Absence in words: a missed phase's warning, the reminder's note on a run of misses,
the moderator's notices and a standby's offer."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.i18n import t
from bot.render import words


def warning_text(p: Mapping[str, Any], game_id: int | None, locale: str) -> str:
    """The DM after a missed phase: what was missed, the run, and what follows."""
    what = t(f"absence.what_{p.get('phase')}", locale, round=p.get("round"))
    head = t("absence.warning", locale, what=what, game=game_id, in_row=p.get("in_row"), total=p.get("total"))
    left, action = p.get("left"), str(p.get("action") or "notify")
    if left is None:
        tail = t("absence.never", locale)
    elif left == 0:
        tail = t(f"absence.now_{action}", locale)
    else:
        tail = t(f"absence.next_{action}", locale, count=left)
    return words.sentences((head, tail), locale)


def reminder_note(p: Mapping[str, Any], locale: str) -> str | None:
    """What a private reminder adds for a player on a run of misses (None: nothing)."""
    if not p.get("in_row"):
        return None
    run = t("absence.reminder_run", locale, count=p["in_row"])
    left, action = p.get("left"), str(p.get("action") or "notify")
    if left is None:
        return run
    # ``left`` counts this phase: 1 means missing it too is enough.
    follows = t(f"absence.now_{action}", locale) if left <= 0 else t(f"absence.next_{action}", locale, count=left)
    return words.sentences((run, follows), locale)


def moderator_text(p: Mapping[str, Any], locale: str) -> str:
    name = words.shown_name(str(p.get("name", "")), locale)
    if p.get("type") == "offers_exhausted":
        key = "absence.exhausted_removed" if p.get("removed") else "absence.exhausted"
        return t(key, locale, game=p.get("game"), seat=p.get("seat"), name=name)
    action = t(f"absence.moderator_{p.get('action')}", locale)
    return t("absence.moderator", locale, game=p.get("game"), seat=p.get("seat"), name=name, in_row=p.get("in_row"), total=p.get("total"), action=action)


def offer_text(p: Mapping[str, Any], locale: str) -> str:
    expires = p.get("expires")
    ts = int(datetime.fromisoformat(expires).timestamp()) if isinstance(expires, str) else 0
    return t("absence.offer", locale, game=p.get("game"), channel=f"<#{p.get('channel')}>", seat=p.get("seat"), expires=f"<t:{ts}:t> (<t:{ts}:R>)")

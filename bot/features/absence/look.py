"""Absence in words: a missed phase's warning, the reminder's note on a run of misses,
the moderator's notices and a standby's offer."""

from __future__ import annotations

from datetime import datetime

from bot.i18n import t
from bot.render import words


def warning_text(phase: str, round_no: int, in_row: int, total: int, left: int | None, action: str, game_id: int | None, locale: str) -> str:
    """The DM after a missed phase: what was missed, the run, and what follows (``left``:
    how many more misses the policy waits for, None: it never acts)."""
    what = t(f"absence.what_{phase}", locale, round=round_no)
    head = t("absence.warning", locale, what=what, game=game_id, in_row=in_row, total=total)
    if left is None:
        tail = t("absence.never", locale)
    elif left == 0:
        tail = t(f"absence.now_{action or 'notify'}", locale)
    else:
        tail = t(f"absence.next_{action or 'notify'}", locale, count=left)
    return words.sentences((head, tail), locale)


def reminder_note(in_row: int, left: int | None, action: str, locale: str) -> str | None:
    """What a private reminder adds for a player on a run of misses (None: nothing)."""
    if not in_row:
        return None
    run = t("absence.reminder_run", locale, count=in_row)
    if left is None:
        return run
    # ``left`` counts this phase: 1 means missing it too is enough.
    action = action or "notify"
    follows = t(f"absence.now_{action}", locale) if left <= 0 else t(f"absence.next_{action}", locale, count=left)
    return words.sentences((run, follows), locale)


def moderator_text(game_id: int, seat: int, name: str, in_row: int, total: int, action: str, locale: str) -> str:
    """To the moderator: a seat's run of misses reached the limit, and what was done."""
    what = t(f"absence.moderator_{action}", locale)
    player = words.seat_name(seat, words.shown_name(name, locale))
    return t("absence.moderator", locale, game=game_id, player=player, in_row=in_row, total=total, action=what)


def exhausted_text(game_id: int, seat: int, name: str, removed: bool, locale: str) -> str:
    """To the moderator: no standby took the seat (and so it was removed, or not)."""
    key = "absence.exhausted_removed" if removed else "absence.exhausted"
    return t(key, locale, game=game_id, player=words.seat_name(seat, words.shown_name(name, locale)))


def offer_text(game_id: int, channel_id: int, seat: int, expires: str, locale: str) -> str:
    ts = int(datetime.fromisoformat(expires).timestamp())
    return t("absence.offer", locale, game=game_id, channel=f"<#{channel_id}>", seat=seat, expires=f"<t:{ts}:t> (<t:{ts}:R>)")

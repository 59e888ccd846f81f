"""Absence in words: a missed phase's warning, the moderator's notices and a standby's
offer, and their messages (a reminder's note on a run of misses is the reminder's,
``bot.render.outgoing``)."""

from __future__ import annotations

from datetime import datetime

from bot.core.messages import AbsenceModerator, AbsenceWarning, OffersExhausted, SeatOffered
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.i18n import t
from bot.render import words
from bot.render.outgoing import NEUTRAL, RENDERERS, Rendered
from bot.render.replies import notice_embed


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


ABSENCE_COLOUR = 0xB45309


def _absence_warning(m: AbsenceWarning, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = warning_text(m.phase, m.round, m.in_row, m.total, m.left, m.action, msg.game_id, loc)
    return Rendered(embeds=[notice_embed(text, ABSENCE_COLOUR)])


def _absence_moderator(m: AbsenceModerator, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = moderator_text(m.game, m.seat, m.name, m.in_row, m.total, m.action, loc)
    return Rendered(embeds=[notice_embed(text, ABSENCE_COLOUR)])


def _offers_exhausted(m: OffersExhausted, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    return Rendered(embeds=[notice_embed(exhausted_text(m.game, m.seat, m.name, m.removed, loc), ABSENCE_COLOUR)])


def _seat_offer(m: SeatOffered, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    text = offer_text(m.game, m.channel, m.seat, m.expires, loc)
    return Rendered(embeds=[notice_embed(text, NEUTRAL)])


RENDERERS.add(AbsenceWarning, _absence_warning)
RENDERERS.add(AbsenceModerator, _absence_moderator)
RENDERERS.add(OffersExhausted, _offers_exhausted)
RENDERERS.add(SeatOffered, _seat_offer)

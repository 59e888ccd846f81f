"""A seat's recap (see :mod:`bot.features.recap.recap`) as embeds: one per step of the game
log, titled by the round and phase whose close told it, the public lines first and
then the seat's own, each of those marked 🔒. Lines are the renderer's own
(``render_event``): a recap line is, word for word, a line the channel showed or the
seat's DM said.

Discord's limits are kept without cutting a line: an embed's description of at most
4,096 characters (a long step goes on in a second embed), a message of at most 10
embeds and 6,000 characters (``messages`` groups them; ``fit_one`` keeps what fits
in one and says how many steps are left out)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import discord

from bot.core.messages import RecapPart
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.features.recap import recap as recap_case
from bot.i18n import t
from bot.render.events import render_event
from bot.render.outgoing import RENDERERS, Rendered
from bot.render.replies import names_of
from engine.events import Audience, Event

MINE = "🔒 "  # marks a line told to this seat only
COLOUR = 0x4B5563
DESCRIPTION_LIMIT = 4096
EMBEDS_PER_MESSAGE = 10
CHARS_PER_MESSAGE = 6000
TITLES = {"remove": "recap.title_removed", "end": "recap.title_ended"}


class RecapEntry(Protocol):
    """One step of a seat's history (``bot.features.recap.recap.RecapEntry``): the public
    events and the seat's own, as stored, from the close of ``phase`` of ``round``."""

    @property
    def round(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def step(self) -> str: ...
    @property
    def public(self) -> Sequence[dict[str, Any]]: ...
    @property
    def private(self) -> Sequence[dict[str, Any]]: ...


def entry_lines(entry: RecapEntry, locale: str | None, names: dict[int, str]) -> list[str]:
    """The lines of one step: the public ones, then the seat's own (marked)."""
    out = []
    for d in entry.public:
        event = Event.from_dict(d)
        if event.audience is Audience.PUBLIC and event.kind != "GameEnded":
            out += render_event(event, locale, names).splitlines()
    for d in entry.private:
        event = Event.from_dict(d)
        if event.audience is Audience.PRIVATE:
            out += [MINE + line for line in render_event(event, locale, names).splitlines()]
    return out


def entry_title(entry: RecapEntry, locale: str | None) -> str:
    key = TITLES.get(entry.step, "recap.title_phase")
    return t(key, locale, round=entry.round, phase=f"phase.{entry.phase}")


def _descriptions(lines: Iterable[str]) -> list[str]:
    """Lines joined into descriptions of at most DESCRIPTION_LIMIT characters, whole
    lines each (one line is far shorter than that)."""
    out: list[str] = []
    for line in lines:
        line = line[:DESCRIPTION_LIMIT]
        if out and len(out[-1]) + 1 + len(line) <= DESCRIPTION_LIMIT:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def recap_embeds(entries: Iterable[RecapEntry], locale: str | None, names: dict[int, str]) -> list[tuple[int, discord.Embed]]:
    """(round, embed) for every step, oldest first; a step whose lines outgrow one
    embed goes on in the next, under the same title."""
    out = []
    for entry in entries:
        lines = entry_lines(entry, locale, names)
        if not lines:
            continue
        title = entry_title(entry, locale)
        for text in _descriptions(lines):
            out.append((entry.round, discord.Embed(title=title, description=text, colour=COLOUR)))
    return out


def messages(embeds: list[discord.Embed], first_extra: int = 0) -> list[list[discord.Embed]]:
    """Embeds grouped into messages Discord accepts (at most 10 and 6,000 characters
    each); ``first_extra``: characters the first message spends on its text already."""
    out: list[list[discord.Embed]] = []
    size = 0
    for e in embeds:
        if not out or len(out[-1]) == EMBEDS_PER_MESSAGE or size + len(e) > CHARS_PER_MESSAGE:
            size = first_extra if not out else 0
            out.append([])
        out[-1].append(e)
        size += len(e)
    return [m for m in out if m]


def fit_one(embeds: list[discord.Embed], spent: int = 0) -> tuple[list[discord.Embed], int]:
    """The embeds, from the first, that fit in one message beside ``spent`` characters
    of its text, and how many did not."""
    kept: list[discord.Embed] = []
    size = spent
    for e in embeds:
        if len(kept) == EMBEDS_PER_MESSAGE or size + len(e) > CHARS_PER_MESSAGE:
            break
        kept.append(e)
        size += len(e)
    return kept, len(embeds) - len(kept)


def _recap(m: RecapPart, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """One part of a newcomer's catch-up: the seat's history, a few steps per message."""
    entries = [recap_case.RecapEntry.from_dict(e) for e in m.entries]
    embeds = [e for _, e in recap_embeds(entries, loc, names_of(info, loc) if info else {})]
    content = t("recap.catch_up", loc, seat=m.seat, game=msg.game_id, part=m.part, parts=m.parts)
    if m.part == 1:
        content += "\n" + t("recap.legend", loc)
    kept, left = fit_one(embeds, len(content) + 200)
    if left:  # never expected (the service keeps parts small); said rather than refused
        content += "\n" + t("recap.cut", loc, count=left)
    return Rendered(content=content[:2000], embeds=kept)


RENDERERS.add(RecapPart, _recap)

"""``wolfhowl demo --spectators N``: server members who do not play, watch the game from
its gallery (``/game watch``) and predict its winner each round with the gallery's menu
(a pick when the Day opens, sometimes a change of mind at Dusk), as people would, every
move an interaction with the real bot. Their refusals and failures count in the demo's
figures like the players'."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.i18n import t
from bot.sandbox.people import Person, Stats
from bot.sandbox.play_table import Tavern
from discord_emulator import Message

FACTIONS = ("lawful", "neutral", "chaotic")


class Spectators:
    """``n`` spectators of the game in ``channel`` (named ``spectator1``…, in ``locale``)."""

    def __init__(self, tavern: Tavern, channel: Any, n: int, stats: Stats, *, seed: str, locale: str) -> None:
        assert tavern.guild is not None
        self.tavern = tavern
        self.channel = channel
        self.rng = random.Random(f"{seed}:spectators")
        self.people: list[Person] = []
        for i in range(1, n + 1):
            user = tavern.emu.create_user(f"spectator{i}", locale=locale)
            tavern.emu.add_member(tavern.guild, user)
            self.people.append(Person(tavern, user, channel, stats, in_dm=False))
        self.tasks: list[asyncio.Task[None]] = []
        self.picks = 0
        self.late = 0
        self.refused: list[str] = []
        self.game_id: int | None = None

    async def watch(self, game_id: int) -> None:
        self.game_id = game_id
        for p in self.people:
            reply = await p.command("game watch")
            if reply.error:
                self.refused.append(f"{p.name}: {reply.text}")

    def on_phase(self, round_no: int, phase: str) -> None:
        """A phase has opened (the game's ``on_phase``): predict in the background."""
        if self.people and self.game_id is not None and phase in ("day", "dusk"):
            self.tasks.append(asyncio.get_running_loop().create_task(self._predict(round_no, changing=phase == "dusk")))

    def _menu(self, round_no: int) -> tuple[Message, str] | None:
        cid = f"wh:predict:{self.game_id}:{round_no}"
        assert self.tavern.guild is not None
        for room in self.tavern.guild.channels.values():
            if room.topic and f"[wolfhowl:dead-of:{self.channel.id}]" in room.topic:
                for m in self.tavern.public(room):
                    if cid in m.custom_ids():
                        return m, cid
        return None

    async def _predict(self, round_no: int, *, changing: bool) -> None:
        found = None
        for _ in range(400):  # the menu follows the Day's post through the outbox
            found = self._menu(round_no)
            if found is not None:
                break
            await asyncio.sleep(0.05)
        if found is None:
            self.refused.append(f"no menu for round {round_no}")
            return
        menu, cid = found
        for p in self.people:
            if changing and self.rng.random() < 2 / 3:
                continue  # most keep their Day's pick
            reply = await p.select(menu, cid, [self.rng.choice(FACTIONS)])
            if reply.error and t("svc.predictions_closed", p.locale, game_id=self.game_id, round=round_no) in reply.text:
                self.late += 1  # the phases close when the players have acted: a spectator may come too late
            elif reply.error:
                self.refused.append(f"{p.name}: {reply.text}")
            else:
                self.picks += 1

    async def finish(self) -> None:
        """Wait for every prediction under way."""
        await asyncio.gather(*self.tasks)

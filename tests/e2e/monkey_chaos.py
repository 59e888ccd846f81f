"""The chaos of :mod:`tests.e2e.monkey`: the bot restarted, killed while a step's news is
being delivered (and started again on the same database), or the game's clock skipped to
the next deadline; half the crashes hit a moderator's command, and after an upheaval
someone often presses what they were shown before it. Mixed into ``Monkey``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from bot.sandbox.play_table import GameClock
from tests.e2e.monkey_moves import CHAOS_MODERATION, Move, is_select, menu_values

if TYPE_CHECKING:
    from tests.e2e.monkey import Actor


class Upheavals:
    """Restarts, crashes and clock skips, drawn from the chaos's own stream."""

    def chaos_move(self, actor: Actor, move: Move, upheaval: str | None) -> tuple[Actor, Move]:
        """With chaos: half the crashes hit a moderator's command, and after a restart or a
        crash someone often presses what they were shown before it (drawn from the chaos's
        own stream, after the seed's move, so that the seed's moves stay the same)."""
        if self.chaos is None or self.chaos_choose is None:
            return actor, move
        if upheaval == "crash" and self.chaos.random() < 0.5:
            path = self.chaos_choose.pick(CHAOS_MODERATION)
            return self.moderating, Move("command", path, self.chaos_choose.options(path))
        if self.before_restart and self.chaos.random() < 0.6:
            who = self.chaos.choice(sorted(self.before_restart))
            seen = self.before_restart.pop(who)
            a = next(x for x in self.actors if x.person.user.id == who)
            if seen:
                m, c = self.chaos.choice(seen)
                if is_select(c):
                    return a, Move("select", c["custom_id"], message=m, values=menu_values(self.chaos, c))
                return a, Move("click", c["custom_id"], message=m)
        return actor, move

    def remember_components(self) -> None:
        """What each player could press just before the bot went down (for after it)."""
        self.before_restart = {a.person.user.id: self.seen_components(a, late=False) for a in self.actors if a.kind == "player"}

    async def time_passes(self) -> None:
        """The game's clock jumps just past the next deadline or reminder."""
        from bot.core.deadlines import next_wakeup

        due = await next_wakeup(self.tavern.db)
        clock = self.tavern.clock
        if due is not None and isinstance(clock, GameClock):
            clock.skip(max(0.0, (due - clock()).total_seconds()) + 1)
            await self.settled(f"step {self.step_no}, the clock skipped to {due:%H:%M:%S}")

    async def crash(self, where: str) -> None:
        """Kill the bot while the step's news is being delivered and start a new one on the
        same database: what was stored is still there (every submission as it was, unless
        the game moved on meanwhile: a phase the dead process was closing is closed by the
        new one; every message), and the messages the dead one held go out once its
        leases are taken over by the new one, at once (the game's clock stands still)."""
        kept = await self.stored_rows()
        self.remember_components()
        await self.tavern.stop_bot(crash=True)
        await self.tavern.start_bot()
        now = await self.stored_rows()
        lost_subs = [sub for sub in kept[1] if sub not in now[1]] if now[0] == kept[0] else []
        lost_mail = [m for m in kept[2] if m not in now[2]]
        if lost_subs or lost_mail:
            self.found(where, f"the crash lost submissions {lost_subs} and messages {lost_mail}")

    async def stored_rows(self) -> tuple[Any, ...]:
        """The game's version, then every submission (id, revision, payload) and the ids of
        its messages."""
        from bot.db.models import Game, OutboxMessage, Submission

        async with self.tavern.db.read() as s:
            game = await s.get(Game, self.game_id)
            assert game is not None
            subs = await s.execute(
                select(Submission.id, Submission.revision, Submission.payload).where(Submission.game_id == self.game_id).order_by(Submission.id)
            )
            mail = await s.execute(select(OutboxMessage.id).where(OutboxMessage.game_id == self.game_id).order_by(OutboxMessage.id))
            return (game.version, [tuple(r) for r in subs], [r[0] for r in mail])

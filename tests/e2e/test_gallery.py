"""The gallery over the local Discord: a spectator's ``/game watch`` opens the dead's
channel to them and mutes them where the living read, by Discord's own overwrites; the
living never read the gallery; a restart puts a watcher's access back; what the gallery
is shown follows the game's setting: ``open`` in the step itself, ``late`` one whole
round after, never earlier (over several seeded games, in both languages)."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from bot.db.models import GameStep, OutboxMessage
from bot.features.moderation.moderation import end_game
from bot.features.replay.look import step_label
from bot.i18n import t
from bot.sandbox import play_reader as reader
from bot.sandbox.people import Person, Stats
from bot.sandbox.play_game import GameOptions, TableGame
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from discord_emulator import Message
from discord_emulator import permissions as perm
from discord_emulator.state import Overwrite
from tests.e2e.conftest import run
from tests.e2e.test_crash_effects import can_send, dead_channel, until


def options(gallery: str, **more: Any) -> GameOptions:
    return GameOptions(day="1h", dusk="1h", morning="1h", quiet_dead=True, lean=True, house_rules={"gallery": gallery}, **more)


def spectator(tavern: Tavern, channel: Any, name: str, locale: str = "en-US") -> Person:
    """A member of the server who does not play."""
    assert tavern.guild is not None
    user = tavern.emu.create_user(name, locale=locale)
    tavern.emu.add_member(tavern.guild, user)
    tavern.emu.dm_channel(user)
    return Person(tavern, user, channel, Stats(), in_dm=False)


def sees(tavern: Tavern, user: Any, channel: Any) -> bool:
    return bool(tavern.emu.permissions_of(user, channel) & perm.VIEW_CHANNEL)


def truth_posts(tavern: Tavern, channel: Any) -> list[Message]:
    """The gallery's truth posts in ``channel`` (their title, in either language)."""
    marks = {t("gallery.truth_title", loc, step="").strip().rstrip("—").strip() for loc in ("en-US", "zh-CN")}
    return [m for m in tavern.public(channel) if any(str(e.get("title") or "").startswith(tuple(marks)) for e in m.embeds)]


def round_of(post: Message) -> int:
    """The round a truth post tells of, from its title (the deal: 0)."""
    title = str(post.embeds[0].get("title") or "")
    found = re.search(r"(\d+)", title)
    return int(found.group(1)) if found else 0


async def gallery_rows(tavern: Tavern, game_id: int) -> list[tuple[str, dict[str, Any]]]:
    """The gallery's truth rows of the outbox: (idempotency key, payload)."""
    async with tavern.db.read() as s:
        rows = (await s.execute(select(OutboxMessage).where(OutboxMessage.game_id == game_id, OutboxMessage.recipient_kind == "gallery"))).scalars()
        # (the round's menu of predictions is a gallery post too: bot.features.gallery.predictions)
        return [(r.idempotency_key, r.payload) for r in rows if r.payload.get("type") == "gallery_truth"]


async def last_closed_round(tavern: Tavern, game_id: int) -> int:
    """The last round whose Morning closed (0: none)."""
    async with tavern.db.read() as s:
        stmt = select(func.max(GameStep.round)).where(GameStep.game_id == game_id, GameStep.kind == "advance", GameStep.phase == "morning")
        return int(await s.scalar(stmt) or 0)


def written_in(key: str) -> tuple[int, str]:
    """The (round, phase) of the step whose unit of work wrote the row (its key's ``r<round>:<phase>``)."""
    found = re.match(r"g\d+:\d+:r(\d+):(\w+):", key)
    assert found, key
    return int(found.group(1)), found.group(2)


def test_a_spectator_reads_the_gallery_the_living_never_do_and_a_restart_keeps_it():
    async def scenario() -> None:
        clock = GameClock(1.0)
        async with Tavern(clock=clock, seed="gallery") as tavern:
            seating = tavern.seat_table(TableSpec(players=6))
            channel = seating.channel
            game = TableGame(tavern, seating, options("open"), seed="gallery")
            sam = spectator(tavern, channel, "sam")
            mei = spectator(tavern, channel, "mei", "zh-CN")
            await game.open()
            assert game.game_id is not None
            assert await game.next_phase(1, "day")
            await tavern.drained()
            dead = dead_channel(tavern, channel)
            # The lobby post named the setting.
            shown = t("reply.settings.gallery", "en-US", value=t("gallery.setting_open", "en-US"))
            assert any(shown in reader.message_text(m) for m in tavern.public(channel))

            # A living player is refused, in their own language; nothing opens to them.
            alice, zh = game.players[0], next(p for p in game.players if p.locale == "zh-CN")
            for player in (alice, zh):
                refused = await player.command("game watch", in_dm=False)
                assert refused.error and t("svc.watch_alive", player.locale, game_id=game.game_id) in refused.text, refused.text

            # Two spectators, one in each language.
            for person in (sam, mei):
                watching = await person.command("game watch")
                assert not watching.error, watching.text
                assert t("gallery.shown_open", person.locale) in watching.text
            await tavern.drained()
            for person in (sam, mei):
                assert sees(tavern, person.user, dead) and can_send(tavern, person.user, dead)
                assert sees(tavern, person.user, channel) and not can_send(tavern, person.user, channel)
            # Discord's own overwrites say it: the room hidden from @everyone, each
            # spectator let in by their own; in the game channel, their voice denied.
            assert tavern.guild is not None
            everyone = dead.overwrites[tavern.guild.id]
            assert everyone.deny & perm.VIEW_CHANNEL
            assert dead.overwrites[sam.user.id].allow & perm.VIEW_CHANNEL
            assert channel.overwrites[sam.user.id].deny & perm.SEND_MESSAGES
            for p in game.players:
                assert p.user.id not in dead.overwrites and not sees(tavern, p.user, dead), p.name
            # Watching again says so; a spectator takes no seat of the game.
            again = await sam.command("game watch")
            assert not again.error and t("gallery.again", "en-US", game=game.game_id, room=f"<#{dead.id}>") in again.text
            standby = await mei.command("standby join")
            assert standby.error and t("svc.watched_no_seat", "zh-CN", game_id=game.game_id) in standby.text

            # open: the deal and the Day's truth in the gallery as soon as the Day closes.
            await game.play_phase(1, "day")
            assert await game.next_phase(1, "dusk")
            await tavern.drained()
            titles = [str(m.embeds[0].get("title")) for m in truth_posts(tavern, dead)]
            assert titles == [
                t("gallery.truth_title", "en-US", step=step_label({"kind": kind, "round": r, "phase": ph}, "en-US"))
                for kind, r, ph in (("start", 0, "start"), ("advance", 1, "day"))
            ], titles
            assert all(t("gallery.truth_open", "en-US") in reader.message_text(m) for m in truth_posts(tavern, dead))
            deal = reader.message_text(truth_posts(tavern, dead)[0])
            assert all(p.name in deal for p in game.players)
            # Nothing of it where the living read: the channel, their DMs.
            assert truth_posts(tavern, channel) == []
            assert all(truth_posts_in(tavern.dms(p.user)) == [] for p in game.players)
            for key, payload in await gallery_rows(tavern, game.game_id):  # each written in its own step
                assert written_in(key) == (payload["round"], payload["phase"]), key

            # A crash; meanwhile a hand takes Sam's overwrite in the gallery away. The
            # next process puts it back from the stored spectators.
            await tavern.stop_bot(crash=True)
            tavern.emu.ctx.guild_ops.delete_overwrite(dead, sam.user.id)
            tavern.emu.ctx.guild_ops.set_overwrite(channel, Overwrite(id=mei.user.id, type=1))
            assert not sees(tavern, sam.user, dead) and can_send(tavern, mei.user, channel)
            await tavern.start_bot()
            await until(tavern, lambda: sees(tavern, sam.user, dead), "sam let into the gallery again")
            await until(tavern, lambda: not can_send(tavern, mei.user, channel), "mei muted again")
            assert sees(tavern, mei.user, dead)
            assert all(not sees(tavern, p.user, dead) for p in game.players)

            # Leaving: the gallery closes to Sam, who stays muted in the game channel.
            left = await sam.command("game unwatch")
            assert not left.error and t("gallery.unwatched", "en-US", game=game.game_id, channel=f"<#{channel.id}>") in left.text
            await tavern.drained()
            assert not sees(tavern, sam.user, dead) and not can_send(tavern, sam.user, channel)

            # The end gives everyone their voice back and closes the gallery to all.
            await ended(tavern, game)
            await until(tavern, lambda: can_send(tavern, sam.user, channel) and not sees(tavern, mei.user, dead), "the end frees all")

    run(scenario())


def truth_posts_in(messages: list[Message]) -> list[Message]:
    marks = tuple(t("gallery.truth_title", loc, step="").strip().rstrip("—").strip() for loc in ("en-US", "zh-CN"))
    return [m for m in messages if any(str(e.get("title") or "").startswith(marks) for e in m.embeds)]


async def ended(tavern: Tavern, game: TableGame) -> None:
    """The game ended by its moderator, and the bot caught up."""
    assert game.game_id is not None
    await end_game(tavern.db, game.game_id)
    tavern.bot.wake_dispatcher()
    await tavern.drained()


def test_a_spectator_of_a_lobby_is_refused_a_seat_until_they_stop_watching():
    async def scenario() -> None:
        async with Tavern(seed="gallery-lobby") as tavern:
            seating = tavern.seat_table(TableSpec(players=6))
            game = TableGame(tavern, seating, options("chat"), seed="gallery-lobby")
            created = await game.moderator.create(**game.options.lobby_options())
            assert not created.error, created.text
            game_id = game.moderator.game_id
            sam = spectator(tavern, seating.channel, "sam")
            watching = await sam.command("game watch")
            assert not watching.error and t("gallery.shown_chat", "en-US") in watching.text
            joined = await sam.command("game join")
            assert joined.error and t("svc.join_watching", "en-US", game_id=game_id) in joined.text
            left = await sam.command("game unwatch")
            assert not left.error and t("gallery.unwatched_lobby", "en-US", game=game_id) in left.text
            joined = await sam.command("game join")
            assert not joined.error, joined.text
            # A lobby member may not watch the game they joined.
            refused = await sam.command("game watch")
            assert refused.error and t("svc.watch_lobby", "en-US", game_id=game_id) in refused.text
            # Nor does a game whose dead have no channel of their own.
            loud = tavern.seat_table(TableSpec(players=6, name_prefix="l"), channel_name="loud")
            off = TableGame(tavern, loud, GameOptions(quiet_dead=False), seed="gallery-off")
            assert not (await off.moderator.create(**off.options.lobby_options())).error
            onlooker = spectator(tavern, loud.channel, "onlooker")
            refused = await onlooker.command("game watch")
            assert refused.error and t("gallery.off", "en-US", game=off.moderator.game_id) in refused.text, refused.text
            # A practice game has no gallery.
            solo = spectator(tavern, seating.channel, "solo")
            started = await solo.command("practice start", in_dm=True)
            assert not started.error, started.text
            practice = await solo.command("game watch", in_dm=True)
            assert practice.error and t("svc.gallery_practice", "en-US") in practice.text, practice.text

    run(scenario())


LATE_GAMES = (("late-1", "en-US"), ("late-2", "zh-CN"), ("late-3", "en-US"))


def test_late_truth_comes_one_whole_round_after_never_earlier():
    """Over several seeded games: whenever a phase opens in round R, the gallery holds no
    truth of a round after R - 2 (round R - 1 has not closed yet); each row was written in
    the Morning step closing the round after the one it tells; at the end every round up
    to the one before the last closed is there."""

    async def scenario() -> None:
        async with Tavern(clock=GameClock(1.0), seed="gallery-late") as tavern:
            for n, (seed, language) in enumerate(LATE_GAMES):
                seating = tavern.seat_table(TableSpec(players=6, name_prefix=f"g{n}", language=language), channel_name=f"late{n}")
                channel = seating.channel
                viewer = spectator(tavern, channel, f"viewer{n}", language)
                seen: list[tuple[int, str, list[int]]] = []

                def check(round_no: int, phase: str, channel: Any = channel, seen: list[tuple[int, str, list[int]]] = seen) -> None:
                    rooms = [c for c in tavern.guild.channels.values() if c.topic and f"[wolfhowl:dead-of:{channel.id}]" in c.topic]
                    rounds = [round_of(m) for room in rooms for m in truth_posts(tavern, room)]
                    seen.append((round_no, phase, rounds))
                    assert all(r <= round_no - 2 for r in rounds), (round_no, phase, rounds)

                game = TableGame(tavern, seating, options("late", language=language), seed=seed, on_phase=check)
                await game.open()
                assert game.game_id is not None
                assert await game.next_phase(1, "day")
                watching = await viewer.command("game watch")
                assert not watching.error and t("gallery.shown_late", language) in watching.text, watching.text
                report = await game.play(1, "day")
                assert report.over
                await tavern.drained()
                dead = dead_channel(tavern, channel)
                rows = await gallery_rows(tavern, game.game_id)
                closed = [written_in(key) for key, _ in rows]
                assert all(phase == "morning" and r == payload["round"] + 1 for (r, phase), (_, payload) in zip(closed, rows, strict=True)), closed
                posted = sorted({round_of(m) for m in truth_posts(tavern, dead)})
                # Every round before the last whose Morning closed (the deal is round 0).
                assert posted == list(range(0, await last_closed_round(tavern, game.game_id))), posted
                assert len(seen) >= 4  # the game ran past its second round's opening
                if language == "zh-CN":
                    assert all(str(m.embeds[0].get("title")).startswith("🔭 真相") for m in truth_posts(tavern, dead))
                    assert any(t("gallery.truth_late", "zh-CN") in reader.message_text(m) for m in truth_posts(tavern, dead))
                assert truth_posts(tavern, channel) == []

    run(scenario())

"""``wolfhowl demo``: one whole game on the built-in local Discord.

Starts the emulator (:mod:`bot.sandbox`), the real bot on a temporary SQLite database and
a server of scripted people (:mod:`bot.sandbox.players`): a moderator opens a game, the
players join, and the game is played to its end, every move a slash command, button,
menu or form. Then the game channel is printed as any player would read it (and, with
``--show-dms``, what each player received in private). No token, no network beyond
127.0.0.1. Phases close when everyone has acted (the moderator's ``/phase advance``) or,
with ``--deadlines``, at their deadlines on a clock running ``--speed`` times faster.
``--absent`` plays a slow game instead: day-long phases, the clock jumping to each
deadline, two players quiet, a standby who takes one seat. ``--practice`` plays a
practice game: one person against AI seats in their DM with the bot
(:mod:`bot.sandbox.practice`), printed as that DM.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import statistics
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text

from bot.i18n import t
from bot.render import words
from bot.sandbox import play_reader as reader
from bot.sandbox.linebreak import Prose
from bot.sandbox.play_slow import slow_options
from bot.sandbox.play_table import GameClock, TableSpec, Tavern
from bot.sandbox.spectators import Spectators

LANGS = ("en-US", "zh-CN", "zh-TW")


@dataclass(frozen=True)
class DemoOptions:
    """What ``wolfhowl demo``'s options ask for (checked by ``bot.cli.demo``)."""

    players: int = 15
    seed: str | None = None
    show_dms: bool = False
    lang: str = "en-US"
    deadlines: bool = False
    speed: float | None = None
    reveal_on_death: bool = False
    closed_dms: int = 1
    absent: bool = False
    database: str | None = None
    ai_seats: int = 0
    practice: bool = False
    quiet: bool = False
    save_attachments: Path | None = None
    spectators: int = 0


async def demo(asked: DemoOptions) -> int:
    """Play the game, print it and the summary; the exit code (0: the game ended cleanly)."""
    from rich.console import Console

    from bot.sandbox.people import Stats
    from bot.sandbox.play_game import GameOptions, TableGame

    console = Console(highlight=False)
    if asked.practice:
        return await _practice(console, asked)
    seed = asked.seed or secrets.token_hex(4)
    speed = asked.speed if asked.speed is not None else (20.0 if asked.deadlines else 1.0)
    clock = GameClock(speed)
    closed = tuple(range(4, 4 + 5 * max(0, asked.closed_dms), 5))[: asked.closed_dms]
    options = GameOptions(
        language=asked.lang, reveal_on_death=asked.reveal_on_death,
        advance="deadline" if asked.deadlines else "moderator",
        early_advance=asked.deadlines, day="1m", dusk="2m", morning="1m",
        phase_timeout=max(60.0, 240.0 / speed + 30), close_near_deadline=not asked.deadlines, ai_seats=asked.ai_seats,
    )  # fmt: skip
    if asked.spectators:
        options = dataclasses.replace(options, quiet_dead=True)  # the gallery is the dead's channel
    lang = asked.lang
    console.print(Prose.from_markup(t(
        "demo.header", lang, title="[bold]wolfhowl demo[/]", players=asked.players,
        seed=f"[cyan]{escape(seed)}[/]", lang=lang, speed=f"{speed:g}",
        closer=t("demo.closer_deadlines" if asked.deadlines or asked.absent else "demo.closer_moderator", lang),
        replay=f"[cyan]--seed {escape(seed)}[/]",
    )))  # fmt: skip
    stats = Stats()
    t0 = time.perf_counter()
    started = datetime.now().astimezone()
    # With the moderator closing phases, deadlines are minutes away: the scheduler may doze.
    bot_options = {} if asked.deadlines else {"scheduler_max_sleep": 5.0}
    async with Tavern(
        database_url=asked.database,
        clock=clock,
        seed=seed,
        guild_locale=asked.lang,
        bot_options=bot_options,
    ) as tavern:
        seating = tavern.seat_table(
            TableSpec(players=asked.players - asked.ai_seats + asked.absent, closed_dms=closed, language=asked.lang)
        )
        standby = seating.players.pop() if asked.absent else None
        if asked.absent:
            options = slow_options(language=asked.lang, reveal_on_death=asked.reveal_on_death)
        watchers = Spectators(tavern, seating.channel, asked.spectators, stats, seed=seed, locale=lang)
        with console.status(t("demo.opening", lang)) as status:

            def on_phase(r: int, p: str) -> None:
                status.update(t("demo.status", lang, round=r, phase=f"phase.{p}", count=sum(x.alive for x in game.players)))
                watchers.on_phase(r, p)

            game = TableGame(tavern, seating, options, seed=seed, stats=stats, on_phase=on_phase)
            if asked.absent:
                report = await _absent(tavern, clock, game, standby)
            elif asked.spectators:
                await game.open()
                assert game.game_id is not None
                await watchers.watch(game.game_id)
                report = await game.play()
                await watchers.finish()
            else:
                report = await game.play()
            await tavern.drained()
        wall = time.perf_counter() - t0
        if not asked.quiet:
            printer = Printer(console, tavern, clock, started, lang)
            printer.channel(seating.channel, f"#{seating.channel.name}")
            if asked.spectators:
                printer.gallery(seating.channel)
            if asked.show_dms:
                printer.private(game)
        summary(console, report, stats, wall, tavern, lang)
        if asked.save_attachments is not None:
            saved = save_attachments(tavern, asked.save_attachments)
            console.print(f"{len(saved)} attached file{'' if len(saved) == 1 else 's'} saved in {escape(str(asked.save_attachments))}: {escape(', '.join(p.name for p in saved))}")
        if asked.spectators:
            console.print(t("predictions.demo_summary", lang, count=asked.spectators, picks=watchers.picks, late=watchers.late, refused=len(watchers.refused)))
        ok = report.over and not tavern.emu.server_errors and stats.failed == 0 and not watchers.refused
    return 0 if ok else 1


async def _practice(console: Any, asked: DemoOptions) -> int:
    """One person's practice game against ``players - 1`` AI seats, printed as their DM."""
    from bot.sandbox.play_game import GameReport
    from bot.sandbox.practice import Practiser

    seed = asked.seed or secrets.token_hex(4)
    lang = asked.lang
    clock = GameClock(1.0)
    console.print(Prose.from_markup(t(
        "demo.practice_header", lang, title="[bold]wolfhowl demo --practice[/]", players=asked.players,
        seed=f"[cyan]{escape(seed)}[/]", lang=lang, replay=f"[cyan]--seed {escape(seed)}[/]",
    )))  # fmt: skip
    t0 = time.perf_counter()
    started = datetime.now().astimezone()
    async with Tavern(database_url=asked.database, clock=clock, seed=seed, guild_locale=lang) as tavern:
        assert tavern.guild is not None
        user = tavern.emu.create_user("newcomer", locale=lang)
        tavern.emu.add_member(tavern.guild, user)  # a person who can write to the bot shares a server with it
        person = Practiser(tavern, user, seed=seed)
        with console.status(t("demo.opening", lang)):
            reply = await person.start({"players": asked.players, "language": lang})
            over = not reply.error and await person.play()
            await tavern.drained()
        wall = time.perf_counter() - t0
        if not asked.quiet:
            printer = Printer(console, tavern, clock, started, lang)
            printer.console.rule(t("demo.practice_dm", lang, player=f"[bold]{escape(person.player.name)}[/]"))
            for m in tavern.dms(user):
                printer.message(m)
        phases = person.phases
        end = next((m for m in reversed(person.posts) if reader.is_game_over(m)), None)
        report = GameReport(person.game_id, reader.winners(end) if end else [], phases[-1][1] if phases else 0, len(phases), wall, over)
        summary(console, report, person.player.stats, wall, tavern, lang)
        ok = over and not tavern.emu.server_errors and person.player.stats.failed == 0
    return 0 if ok else 1


async def _absent(tavern: Tavern, clock: GameClock, game: Any, standby_user: Any) -> Any:
    """``--absent``: the slow game of :func:`bot.sandbox.play_slow.slow_game`; the
    quiet are the second and fifth players."""
    from bot.sandbox import play_reader as reader
    from bot.sandbox.play_game import GameReport
    from bot.sandbox.play_slow import slow_game
    from bot.sandbox.players import Player

    t0 = time.perf_counter()
    standby = Player(tavern, standby_user, game.seating.channel, game.stats, seed=game.players[0].seed)
    over = await slow_game(tavern, clock, game, standby, [game.players[1], game.players[4]])
    game.players.append(standby)  # (its DMs are printed with the others')
    end = next((m for m in tavern.public(game.seating.channel) if reader.is_game_over(m)), None)
    winners = reader.winners(end) if end is not None else []
    opened = [p for p in map(reader.phase_post, tavern.public(game.seating.channel)) if p is not None]
    rounds = max((r for _, r in opened), default=0)
    return GameReport(game.game_id, winners, rounds, len(opened), time.perf_counter() - t0, over)


def summary(console: Any, report: Any, stats: Any, wall: float, tavern: Tavern, lang: str) -> None:
    from bot.i18n import terms

    winners = t("ui.list_sep", lang).join(terms.faction(w, lang) for w in report.winners) or "—"
    acks = sorted(stats.ack)
    p50 = statistics.median(acks) * 1000 if acks else 0.0
    p99 = acks[min(len(acks) - 1, int(len(acks) * 0.99))] * 1000 if acks else 0.0
    console.rule()
    console.print(Prose.from_markup(t(
        "demo.summary", lang, outcome=f"[bold]{t('demo.over' if report.over else 'demo.not_finished', lang)}[/]",
        winners=f"[bold]{winners}[/]", count=report.rounds, phases=report.phases, seconds=f"{wall:.1f}",
        interactions=stats.interactions, failed=stats.failed, refused=len(stats.refusals),
        p50=f"{p50:.0f}", p99=f"{p99:.0f}", errors=len(tavern.emu.server_errors),
    )))  # fmt: skip


def save_attachments(tavern: Tavern, folder: Path) -> list[Path]:
    """Write every file the bot attached to a message (in a channel or a DM) into
    ``folder``, as ``<message id>-<file name>``; the paths written, in message order."""
    world = tavern.emu.ctx.world
    bot_id = tavern.bot.user.id if tavern.bot is not None and tavern.bot.user is not None else None
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for m in sorted(world.messages.values(), key=lambda m: m.id):
        if bot_id is not None and m.author.id != bot_id:
            continue
        for a in m.attachments:
            path = folder / f"{m.id}-{Path(a.filename).name}"
            path.write_bytes(a.data)
            saved.append(path)
    return saved


class Printer:
    """Messages as a chat client shows them: author, time, text, embeds as cards."""

    def __init__(self, console: Any, tavern: Tavern, clock: GameClock, started: datetime, locale: str = "en-US") -> None:
        self.console = console
        self.lang = locale  # the demo's own frame keeps the game's language throughout
        self.tavern = tavern
        self.clock = clock
        self.started = started
        # The reader's language, in which Discord words a relative time: the game's in
        # the channel, each player's own in their DMs.
        self.locale = locale
        self.users = tavern.emu.ctx.world.users
        self.channels = tavern.emu.ctx.world.channels

    def channel(self, channel: Any, label: str) -> None:
        self.console.rule(t("demo.channel", self.lang, channel=f"[bold]{escape(label)}[/]"))
        for m in self.tavern.public(channel):
            self.message(m)

    def gallery(self, channel: Any) -> None:
        """The game's gallery (its dead's channel), as its spectators read it."""
        for room in self.channels.values():
            if room.topic and f"[wolfhowl:dead-of:{channel.id}]" in room.topic:
                self.channel(room, f"#{room.name}")

    def private(self, game: Any) -> None:
        for p in game.players:
            name = f"[bold]{escape(p.name)}[/]"
            player = words.seat_name(p.seat, name) if p.seat else t("demo.no_seat", self.lang, name=name)
            self.console.rule(t("demo.private", self.lang, player=player, lang=p.locale))
            self.locale = p.locale
            if p.user.dms_closed:
                self.console.print(Prose(Text(t("demo.dms_closed", self.lang), style="dim")))
                inbox = p.inbox_messages
                for m in inbox:
                    self.message(m)
                continue
            for m in self.tavern.dms(p.user):
                self.message(m)

    def message(self, m: Any) -> None:
        from rich.padding import Padding
        from rich.panel import Panel

        elapsed = (m.timestamp - self.started).total_seconds()
        self.console.print(
            Text.assemble((m.author.username, "bold magenta"), (f"  +{elapsed:5.1f}s", "dim"))
        )
        if m.content:
            self.console.print(Padding(Prose.from_markup(self.markup(m.content, m)), (0, 0, 0, 2)))
        for e in m.embeds:
            body = []
            if (e.get("author") or {}).get("name"):
                body.append(f"[dim]{escape(e['author']['name'])}[/]")
            if e.get("description"):
                body.append(self.markup(e["description"], m))
            for f in e.get("fields") or []:
                body.append(
                    f"[bold]{self.markup(f.get('name', ''), m)}[/]\n{self.markup(f.get('value', ''), m)}"
                )
            if (e.get("image") or {}).get("url"):
                body.append(f"[dim]🖼  {escape(str(e['image']['url']).rsplit('/', 1)[-1])}[/]")
            if (e.get("footer") or {}).get("text"):
                body.append(f"[dim]{self.markup(e['footer']['text'], m)}[/]")
            colour = e.get("color")
            style = f"#{colour:06x}" if isinstance(colour, int) else "white"
            title = self.markup(e["title"], m) if e.get("title") else None
            self.console.print(
                Padding(
                    Panel(
                        Prose.from_markup("\n".join(body) or " "),
                        title=title,
                        title_align="left",
                        border_style=style,
                        expand=False,
                    ),
                    (0, 0, 0, 2),
                )
            )
        labels = [
            c.get("label") or c.get("placeholder")
            for c in _components(m)
            if c.get("type") in (2, 3)
        ]
        if labels:
            self.console.print(
                Padding(Prose(Text(" ".join(f"[{x}]" for x in labels if x), style="cyan")), (0, 0, 0, 2))
            )

    def markup(self, text: str, m: Any) -> str:
        """Discord markdown and mentions as rich markup."""
        def mention(match: re.Match[str]) -> str:
            user = self.users.get(int(match.group(1)))
            return f"@{user.username}" if user else match.group(0)

        def channel(match: re.Match[str]) -> str:
            ch = self.channels.get(int(match.group(1)))
            return f"#{ch.name}" if ch and ch.name else match.group(0)

        def stamp(match: re.Match[str]) -> str:
            # Discord shows <t:…> in the reader's own time zone: here, the game clock's.
            # A relative one (:R) counts from when the message was posted, on the game clock.
            at = datetime.fromtimestamp(int(match.group(1))).astimezone()
            if match.group(2) == "R":
                posted = self.clock.at(m.timestamp)
                return relative_time((at - posted).total_seconds(), self.locale)
            return at.strftime("%H:%M")

        # A backslash-escaped character (a player's name is escaped) shows as itself, as
        # in Discord, and takes no part in the formatting.
        kept: list[str] = []

        def keep(match: re.Match[str]) -> str:
            kept.append(match.group(1))
            return f"\x00{len(kept) - 1}\x00"

        text = re.sub(r"\\([^\w\s])", keep, text)
        text = re.sub(r"<@!?(\d+)>", mention, text)
        text = re.sub(r"<#(\d+)>", channel, text)
        text = re.sub(r"<t:(\d+):([tTdDfFR])>", stamp, text)
        text = escape(text)
        text = re.sub(r"\*\*(.+?)\*\*", r"[bold]\1[/bold]", text)
        text = re.sub(r"`([^`]+)`", r"[cyan]\1[/cyan]", text)
        return re.sub("\x00(\\d+)\x00", lambda m: escape(kept[int(m.group(1))]), text)


# (from how many seconds on, unit in seconds, en, zh): a unit is used from 3/4 of the next
# one up, as Discord's clients round ("in 59 seconds" reads "in 1 minute").
RELATIVE_UNITS = ((22 * 3600, 86400, "day", "天"), (45 * 60, 3600, "hour", "小时"), (45, 60, "minute", "分钟"), (0, 1, "second", "秒"))


def relative_time(seconds: float, locale: str) -> str:
    """A time ``seconds`` from now as Discord words <t:…:R>: "in 2 minutes", "2分钟后"."""
    _, size, en, zh = next(u for u in RELATIVE_UNITS if abs(seconds) >= u[0])
    n = round(abs(seconds) / size)
    if locale == "zh-TW":  # as Discord's Traditional Chinese words it
        return f"{n}{zh.replace('时', '時')}{'後' if seconds >= 0 else '前'}"
    if locale.startswith("zh"):
        return f"{n}{zh}{'后' if seconds >= 0 else '前'}"
    unit = en if n == 1 else en + "s"
    return f"in {n} {unit}" if seconds >= 0 else f"{n} {unit} ago"


def _components(m: Any) -> list[dict[str, Any]]:
    from discord_emulator.state import iter_components

    return iter_components(m.components)

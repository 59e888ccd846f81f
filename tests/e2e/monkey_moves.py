"""What the monkey can type and press: every slash command with random, often wrong,
arguments, and the values people put in menus and the grail form. All randomness comes
from the one ``random.Random`` handed in, so a seed replays the same moves.

A move is a plain record (who, what, arguments); :mod:`tests.e2e.monkey` performs it
through the emulator and checks what came back."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.features.moderation import cog_settings as game_settings
from bot.features.play.cog_choices import guess_options, orderable_skills
from bot.i18n import LOCALES, terms
from discord_emulator import Message, User
from discord_emulator.limits import SELECT_TYPES
from discord_emulator.state import iter_components
from engine.classes import catalogue
from engine.values import FACTIONS, Trait

PLAYER_COMMANDS = {
    "grail": 14, "identify": 9, "act attack": 9, "act skill": 11, "vote": 9, "orders": 8,
    "me": 4, "inbox": 4, "rules": 2, "help": 1, "game join": 2, "game leave": 1,
}  # fmt: skip
MODERATOR_COMMANDS = {
    "phase advance": 30, "phase extend": 4, "phase pause": 3, "phase resume": 3, "mod settings": 6,
    "mod status": 6, "mod log": 3, "mod replace": 3, "mod kick": 2, "mod end": 2,
    "mod start": 2, "mod create": 1,
}  # fmt: skip
# What a moderator does to a running game, for the chaos's crashes in the middle of one.
CHAOS_MODERATION = {
    "phase pause": 3, "phase resume": 3, "phase extend": 3, "mod settings": 3, "mod replace": 2, "mod kick": 2,
    "mod end": 1,
}  # fmt: skip
DURATIONS = ("1h", "2h", "90m", "1d", "1.5h", "2小时", "3天", "7d", "8d", "5s", "0", "abc", "-1h", "", "1h30m")
REMINDERS = ("0", "off", "关", "30m", "2h", "1d", "马上", "never", "10s")
FORM_TEXTS = (
    "1", "7", "42", "50", "99", "100", "0", "101", "-1", "abc", "３７", "3.5", " 42 ", "1e3", "²",
    "9" * 30, "٣", "五十", "0x10", "+5",
)  # fmt: skip
JUNK = (" ", "#2", "３", "@everyone", "二", "x" * 120, "1 2", "seat 3", "<@>", "<#1>", "🐺", "-0", "007")


@dataclass
class Move:
    """One thing a person does: a command, a click, a menu pick or a form."""

    kind: str  # "command", "click", "select", "form", "complete"
    what: str  # the command path or the component's custom id
    options: dict[str, Any] = field(default_factory=dict)
    in_dm: bool = False
    message: Message | None = None
    values: list[str] = field(default_factory=list)
    form: Any = None  # the Reply that opened a form
    twice: bool = False  # sent twice at once
    then: str = ""  # then press the answer's component whose id starts so

    def __str__(self) -> str:
        where = (" (DM)" if self.in_dm else "") + (" twice at once" if self.twice else "")
        if self.kind == "command":
            return f"/{self.what} {self.options}{where}"
        if self.kind == "select":
            return f"select {self.what} {self.values}{where}"
        if self.kind == "form":
            return f"form {self.values}"
        if self.kind == "complete":
            return f"complete /{self.what} {self.options}{where}"
        return f"click {self.what}{where}"


def all_skill_words() -> list[str]:
    """Every skill of every class, as id and as name in either language."""
    out = ["attack", "release", "teleport", "释放", "Release"]
    for class_id, spec in catalogue().items():
        for s in spec.skills:
            out.append(s.id)
            out += [terms.skill_name(class_id, s.id, loc) for loc in LOCALES]
    return out


def all_guess_words() -> list[str]:
    out = ["龙骑士", "nothing", "class:dragon", "faction:", "trait:evil"]
    for class_id in catalogue():
        out.append(f"class:{class_id}")
        out += [terms.class_name(class_id, loc) for loc in LOCALES]
    for f in FACTIONS:
        out.append(f"faction:{f.value}")
        out += [terms.faction(f.value, loc) for loc in LOCALES]
    for tr in Trait:
        out.append(f"trait:{tr.value}")
        out += [terms.trait(tr.value, loc) for loc in LOCALES]
    return out


class Chooser:
    """Random arguments for the commands, drawn from ``rng``."""

    def __init__(self, rng: random.Random, seats: int, people: list[User], bot: User, game_ids: list[int]) -> None:
        self.rng = rng
        self.seats = seats
        self.people = people
        self.bot = bot
        self.game_ids = game_ids
        self.skills = all_skill_words()
        self.guesses = all_guess_words()

    def pick(self, weights: dict[str, int]) -> str:
        return self.rng.choices(list(weights), weights=list(weights.values()))[0]

    def player(self) -> str:
        r = self.rng.random()
        if r < 0.5:
            return str(self.rng.randint(1, self.seats))
        if r < 0.65:
            u = self.rng.choice(self.people)
            return u.global_name or u.username
        if r < 0.8:
            u = self.rng.choice([*self.people, self.bot])
            return self.rng.choice((f"<@{u.id}>", f"<@!{u.id}>"))
        if r < 0.92:
            return self.rng.choice(("0", "101", "-1", str(2**40), str(self.seats + 1), "99"))
        return self.rng.choice(JUNK)

    def number(self) -> int:
        if self.rng.random() < 0.8:
            return self.rng.randint(1, 100)
        return self.rng.choice((0, 101, -1, 2**40, -(2**53), 2**53, 1000))

    def options(self, path: str) -> dict[str, Any]:
        r = self.rng
        if path == "grail":
            return {"number": self.number()}
        if path in ("act attack", "vote"):
            return {"player": self.player()}
        if path == "identify":
            return {"player": self.player(), "guess": r.choice(self.guesses)}
        if path == "act skill":
            out: dict[str, Any] = {"skill": r.choice(self.skills)}
            for name in ("target", "target2", "target3"):
                if r.random() < 0.5:
                    out[name] = self.player()
                else:
                    break
            if r.random() < 0.3:
                out["amount"] = r.choice((1, 2, 3, 5, 0, -5, 2**40))
            return out
        if path == "orders":
            return {"clear": r.choice(("orders", "identify", "pass"))} if r.random() < 0.35 else {}
        if path == "rules":
            return {"topic": r.choice([*catalogue(), "combat", "voting", "龙骑士", "x" * 90])} if r.random() < 0.7 else {}
        if path == "mod settings":
            return self.settings()
        if path == "mod create":  # drawn as for /mod settings (the same draws), less what create does not offer
            offered = {s.name for s in game_settings.options(game_settings.CREATE)}
            return {name: value for name, value in self.settings().items() if name in offered}
        if path == "phase extend":
            return {"duration": r.choice(DURATIONS) or "1h"}
        if path == "mod kick":
            return {"player": self.player()}
        if path == "mod replace":
            return {"player": self.player(), "newcomer": r.choice([*self.people, self.bot])}
        if path == "mod log":
            if r.random() < 0.5:
                return {}
            return {"game": r.choice([*self.game_ids, 9999, 2**40])}
        return {}

    def from_sheet(self, path: str, sheet: dict[str, Any], locale: str) -> dict[str, Any] | None:
        """Arguments the sheet allows: one of the player's own skills, with targets and an
        amount in range, or a guess their identification rule can make."""
        r = self.rng
        if path == "identify":
            options = guess_options(sheet)
            if not options:
                return None
            what, value = r.choice(options)
            guess = f"{what}:{value}" if r.random() < 0.5 else terms.guess_value(what, value, locale)
            return {"player": str(r.randint(1, self.seats)), "guess": guess}
        skills = [s for s in orderable_skills(sheet) if not isinstance(s, str)]
        if not skills:
            return None
        spec = r.choice(skills)
        out: dict[str, Any] = {"skill": spec.id if r.random() < 0.5 else spec.name[locale]}  # type: ignore[index]
        low, high = spec.targets
        if high:
            seats = r.sample(range(1, self.seats + 1), min(self.seats, r.randint(low, high)))
            out |= {name: str(seat) for name, seat in zip(("target", "target2", "target3"), seats, strict=False)}
        if spec.amount is not None:
            out["amount"] = r.randint(*spec.amount)
        return out

    def settings(self) -> dict[str, Any]:
        r = self.rng
        out: dict[str, Any] = {}
        for _ in range(r.randint(0, 3)):
            name = r.choice(
                ("max_players", "day", "dusk", "morning", "reminder", "vote_tie", "reveal_on_death",
                 "early_advance", "language", "win_score", "quiet_dead")
            )  # fmt: skip
            if name == "max_players":
                out[name] = r.randint(6, 15)
            elif name in ("day", "dusk", "morning"):
                out[name] = r.choice(DURATIONS) or "2h"
            elif name == "reminder":
                out[name] = r.choice(REMINDERS)
            elif name == "vote_tie":
                out[name] = r.choice(("roll", "nobody", "all"))
            elif name == "language":
                out[name] = r.choice(("en-US", "zh-CN"))
            elif name == "win_score":
                out[name] = r.randint(1, 100)
            else:
                out[name] = r.random() < 0.5
        return out


def components(messages: list[Message]) -> list[tuple[Message, dict[str, Any]]]:
    """The buttons and string menus a person could use on ``messages`` (as they are now)."""
    out = []
    for m in messages:
        if m.deleted:
            continue
        for c in iter_components(m.components):
            if not c.get("custom_id") or c.get("disabled"):
                continue
            if (c.get("type") == 2 and c.get("style") not in (5, 6)) or c.get("type") == 3:
                out.append((m, c))
    return out


def menu_values(rng: random.Random, component: dict[str, Any]) -> list[str]:
    options = [str(o["value"]) for o in component.get("options") or []]
    low = component.get("min_values", 1)
    high = min(component.get("max_values", 1), len(options))
    if not options or high < low:
        return []
    return rng.sample(options, rng.randint(low, high))


def is_select(component: dict[str, Any]) -> bool:
    return component.get("type") in SELECT_TYPES

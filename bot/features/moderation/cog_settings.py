"""The game settings a moderator chooses, declared once.

``SETTINGS`` lists them in the order ``/mod settings`` offers them (the house rules:
``/mod house_rules``) and the settings embed shows them; ``/mod create`` offers, in the
same order, only the few declared ``create=True``: what a lobby needs at its opening (the
table's size, the phases' lengths, the language, a start time). Every other setting is
chosen in the lobby with ``/mod settings``, so that a new one costs ``/mod`` one option
rather than two (Discord counts a command's names, descriptions and choices, all its
subcommands' together, toward 4,000 characters). Each declaration names its option (the
catalogue keys ``cmd.name.<name>`` and ``cmd.param.<name>``) and the
:class:`GameSettings` field it sets; the field holds the range, the choices and the
default, so they are written once, there. From the table come the commands' options
(:func:`setting_options`), the checking of what a moderator typed (:func:`overrides`),
the settings embed's lines (:func:`lines`) and the catalogue keys all of that needs
(:func:`catalogue_keys`).

Adding a setting: the field in ``GameSettings`` and its words in the catalogues
(docs/architecture.md, "A game setting"). A field not declared in ``SETTINGS`` is offered
as the setting its type makes (:func:`derived`: a length for ``*_seconds``, yes or no, one
of its values, a whole number in its range), after the declared ones, named as the field,
on ``/mod settings`` only; ``SETTINGS`` declares the order of the others and what a type
cannot say (a shorter name, a line of its own, a prefix for the choices' keys, an option
that is no field, an option ``/mod create`` offers too), and ``NOT_OFFERED`` the fields no
moderator sets.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

import annotated_types
from discord import app_commands

from bot.core.time_zones import MAX_HOURS
from bot.core.types import GameSettings
from bot.discord.durations import parse_duration
from bot.discord.errors import ReplyError
from bot.discord.translator import L
from bot.features.lineup.look import setting_line
from bot.features.lobby.start_time import MAX_START_SECONDS, MIN_START_SECONDS
from bot.features.moderation.look import (
    ai_line,
    deadline_hours_line,
    durations_line,
    policy_text,
    reminder_line,
)
from bot.i18n import t
from bot.render.durations import format_duration

# What switches a reminder (or a lobby's start time) off, in either language.
OFF_WORDS = frozenset({"0", "off", "no", "none", "never", "关", "关闭", "不", "否", "无", "不提醒"})

Line = Callable[[GameSettings, str, int], "str | None"]
"""A settings line: from the settings, the reader's language and the AI's seats now."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting. ``field``: the ``GameSettings`` field it sets (None: the command
    itself acts on it, as on the dead's channel); ``option``: offered as an option of
    ``/mod settings`` (or of ``command``); ``create``: also of ``/mod create``, for the
    few a lobby is opened with; ``line``: its line in the settings embed (None: none, or
    said in another setting's line); ``line_key``: the ``reply.settings.*`` key of the
    plain line, when not the option's name."""

    name: str
    field: str | None = None
    option: bool = True
    line: Line | None = None
    line_key: str | None = None
    command: str = "settings"  # "house_rules": an option of /mod house_rules, not of settings
    create: bool = False  # with command "settings": also an option of /mod create

    def annotation(self) -> Any:
        raise NotImplementedError

    def choices(self) -> list[app_commands.Choice[str]] | None:
        return None

    def value(self, given: Any) -> Any:
        """What the option typed becomes in the field (ReplyError when it cannot)."""
        return given

    def shown(self, value: Any, locale: str) -> str:
        return str(value)

    def plain_line(self, s: GameSettings, locale: str, ai: int) -> str | None:
        """``reply.settings.<line_key>`` with the field's value."""
        assert self.field is not None
        return t(f"reply.settings.{self.line_key or self.name}", locale, value=self.shown(getattr(s, self.field), locale))

    def catalogue_keys(self) -> Iterator[str]:
        if self.option:
            yield f"cmd.name.{self.name}"
            yield f"cmd.param.{self.name}"
        if self.line is None and self.field is not None:
            yield f"reply.settings.{self.line_key or self.name}"


def _bounds(field: str) -> tuple[int, int]:
    """The field's ``ge`` and ``le``."""
    metadata = GameSettings.model_fields[field].metadata
    low: Any = next(m.ge for m in metadata if isinstance(m, annotated_types.Ge))
    high: Any = next(m.le for m in metadata if isinstance(m, annotated_types.Le))
    return int(low), int(high)


@dataclass(frozen=True, slots=True)
class Number(Setting):
    """A whole number in the field's range."""

    def annotation(self) -> Any:
        assert self.field is not None
        return app_commands.Range[int, *_bounds(self.field)] | None


@dataclass(frozen=True, slots=True)
class Percent(Number):
    """A whole percentage in the field's range, 0 reading as none."""

    def shown(self, value: Any, locale: str) -> str:
        return f"{int(value)}%" if value else t("reliability.off", locale)

    def catalogue_keys(self) -> Iterator[str]:
        yield from Setting.catalogue_keys(self)
        yield "reliability.off"


@dataclass(frozen=True, slots=True)
class Flag(Setting):
    """Yes or no."""

    def annotation(self) -> Any:
        return bool | None

    def shown(self, value: Any, locale: str) -> str:
        return t("reply.yes" if value else "reply.no", locale)


@dataclass(frozen=True, slots=True)
class Pick(Setting):
    """One of the field's values, each named by ``cmd.choice.<prefix>_<value>``."""

    prefix: str = ""

    def values(self) -> tuple[str, ...]:
        assert self.field is not None
        return get_args(GameSettings.model_fields[self.field].annotation)

    def choice_key(self, value: str) -> str:
        return f"cmd.choice.{self.prefix or self.name}_{value.replace('-', '_')}"

    def annotation(self) -> Any:
        return app_commands.Choice[str] | None

    def choices(self) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=L(self.choice_key(v)), value=v) for v in self.values()]

    def value(self, given: Any) -> Any:
        return given.value

    def shown(self, value: Any, locale: str) -> str:
        return t(self.choice_key(value), locale)

    def catalogue_keys(self) -> Iterator[str]:
        yield from Setting.catalogue_keys(self)
        yield from (self.choice_key(v) for v in self.values())


@dataclass(frozen=True, slots=True)
class Duration(Setting):
    """A length typed as ``24h``, ``90m``, ``2d``; with ``off_error``, one of the
    ``OFF_WORDS`` is 0 and a length that cannot be read says ``off_error``."""

    low: int = 60
    high: int = 7 * 86400
    off_error: str | None = None

    def annotation(self) -> Any:
        return str | None

    def value(self, given: Any) -> Any:
        text = str(given).strip()
        if self.off_error is None:
            return parse_duration(text, low=self.low, high=self.high)
        if text.casefold() in OFF_WORDS:
            return 0
        try:
            return parse_duration(text, low=self.low, high=self.high)
        except ReplyError:
            raise ReplyError(self.off_error, text=text[:40]) from None

    def shown(self, value: Any, locale: str) -> str:
        return format_duration(int(value), locale)

    def catalogue_keys(self) -> Iterator[str]:
        yield from Setting.catalogue_keys(self)
        if self.off_error:
            yield self.off_error


# What may stand between hours as typed: commas (either language's), spaces, "点" (o'clock).
HOUR_SEPARATORS = str.maketrans({",": " ", "，": " ", "、": " ", "点": " ", "時": " ", "时": " "})


@dataclass(frozen=True, slots=True)
class Hours(Setting):
    """Hours of the day typed as ``18, 2, 10`` (the deadline hours, in the moderator's
    own time zone: the command adds it); one of the ``OFF_WORDS``: none."""

    def annotation(self) -> Any:
        return str | None

    def value(self, given: Any) -> Any:
        """"18, 2, 10" (or "18:00 02:00", "18点，2点") as hours of the day."""
        text = str(given).strip()
        if text.casefold() in OFF_WORDS:
            return ()
        cleaned = text.translate(HOUR_SEPARATORS).replace(":00", "")
        parts = cleaned.split()
        if not parts or len(parts) > MAX_HOURS or not all(p.isascii() and p.isdecimal() and 0 <= int(p) <= 23 for p in parts):
            raise ReplyError("reply.error.deadline_hours", text=text[:40])
        return tuple(int(p) for p in parts)

    def catalogue_keys(self) -> Iterator[str]:
        yield from Setting.catalogue_keys(self)
        yield "reply.error.deadline_hours"


def _durations(s: GameSettings, locale: str, ai: int) -> str:
    return durations_line(s, locale)


def _deadline_hours(s: GameSettings, locale: str, ai: int) -> str | None:
    return deadline_hours_line(s, locale)


def _reminder(s: GameSettings, locale: str, ai: int) -> str:
    return reminder_line(s, locale)


def _lineup(s: GameSettings, locale: str, ai: int) -> str:
    return setting_line(s, locale)


def _absence(s: GameSettings, locale: str, ai: int) -> str:
    return policy_text(s, locale)


def _ai(s: GameSettings, locale: str, ai: int) -> str | None:
    return ai_line(s, ai, locale)


def _gallery(s: GameSettings, locale: str, ai: int) -> str:
    return t("reply.settings.gallery", locale, value=t(f"gallery.setting_{s.gallery}", locale))


def _none(s: GameSettings, locale: str, ai: int) -> None:
    return None


# The command of the house rules a table may choose beside the original's rules (the
# rulings E16-E19 of docs/rules.md): ``/mod house_rules``, in the lobby.
HOUSE_RULES = "house_rules"
# The settings of ``/mod create`` (those declared ``create=True``), and of ``/mod settings``.
CREATE = "create"
SETTINGS_COMMAND = "settings"

SETTINGS: list[Setting] = [
    Number("max_players", "max_players", create=True),
    Duration("day", "day_seconds", line=_durations, create=True),
    Duration("dusk", "dusk_seconds", line=_none, create=True),
    Duration("morning", "morning_seconds", line=_none, create=True),
    Duration("reminder", "reminder_lead_seconds", line=_reminder, off_error="reply.error.reminder"),
    Hours("deadline_hours", "deadline_hours", line=_deadline_hours),
    Pick("vote_tie", "vote_tie_rule", prefix="tie"),
    Flag("reveal_on_death", "reveal_on_death", line_key="reveal"),
    Flag("early_advance", "early_advance", line_key="early"),
    Flag("prompts", "prompts"),
    Pick("language", "language", prefix="lang", create=True),
    Number("win_score", "win_score"),
    Flag("quiet_dead"),  # the dead's channel is the channel's, not the game's (quiet_dead.py)
    Pick("gallery", "gallery", line=_gallery),
    Pick("killing_blow", "killing_blow", command=HOUSE_RULES),
    Pick("departures", "departures", command=HOUSE_RULES),
    Pick("vote_damage", "vote_damage", command=HOUSE_RULES),
    Pick("uneven_tables", "uneven_tables", command=HOUSE_RULES),
    Setting("lineup", "lineup", option=False, line=_lineup),  # chosen with /mod lineup
    Number("absence_misses", "absence_misses", line=_absence),
    Pick("absence_action", "absence_action", prefix="absence", line=_none),
    Duration("offer_time", "offer_seconds", high=86400, line=_none),
    Percent("min_reliability", "min_reliability"),
    Duration("start_in", low=MIN_START_SECONDS, high=MAX_START_SECONDS, off_error="lobby_start.error", create=True),  # the lobby's, not a setting
    Number("ai_seats", "ai_seats", line=_ai),
    Number("fill_to", "fill_to", line=_none),
]


# GameSettings fields no option offers: the Dusk's grace after the last order is the bot's;
# the deadline hours' zone is the moderator's own, which the command adds.
NOT_OFFERED = frozenset({"dusk_grace_seconds", "deadline_zone"})


def derived(field: str) -> Setting:
    """The setting a field makes by its type: a length typed as ``24h`` for a
    ``*_seconds`` field (in the field's range), yes or no for a ``bool``, one of the
    values of a ``Literal``, else a whole number in the field's range."""
    annotation = GameSettings.model_fields[field].annotation
    if field.endswith("_seconds"):
        low, high = _bounds(field)
        return Duration(field.removesuffix("_seconds"), field, low=low, high=high)
    if annotation is bool:
        return Flag(field, field)
    if get_origin(annotation) is Literal:
        return Pick(field, field)
    return Number(field, field)


SETTINGS += [derived(f) for f in GameSettings.model_fields if f not in NOT_OFFERED and f not in {s.field for s in SETTINGS}]


def options(command: str | None = SETTINGS_COMMAND) -> list[Setting]:
    """The settings a command offers (``settings``: ``/mod settings``; ``create``: ``/mod
    create``, those of ``/mod settings`` declared for it; ``house_rules``: ``/mod
    house_rules``; None: every option), in their order."""
    if command == CREATE:
        return [s for s in options(SETTINGS_COMMAND) if s.create]
    return [s for s in SETTINGS if s.option and (command is None or s.command == command)]


def by_command(given: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Options to open a lobby with, by the command that takes them: ``create`` those
    ``/mod create`` offers, then ``settings`` and ``house_rules`` the rest, chosen in the
    lobby (a command with none left out). ValueError for an option no command offers."""
    offered = {s.name: s.command for s in options(None)} | {s.name: CREATE for s in options(CREATE)}
    unknown = sorted(set(given) - set(offered))
    if unknown:
        raise ValueError(f"no setting {', '.join(unknown)}")
    out: dict[str, dict[str, Any]] = {}
    for name, value in given.items():
        out.setdefault(offered[name], {})[name] = value
    return {command: out[command] for command in (CREATE, SETTINGS_COMMAND, HOUSE_RULES) if command in out}


def setting_options(command: str = SETTINGS_COMMAND) -> Callable[[Any], Any]:
    """Decorator: ``func(self, interaction, **given)`` takes every setting ``command``
    offers as an optional option, named, described and with its choices from the
    catalogues."""

    def decorate(func: Any) -> Any:
        offered = options(command)
        fixed = [p for p in inspect.signature(func).parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        added = [inspect.Parameter(s.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=s.annotation()) for s in offered]
        func.__signature__ = inspect.Signature([*fixed, *added])
        func = app_commands.rename(**{s.name: L(f"cmd.name.{s.name}") for s in offered})(func)
        func = app_commands.describe(**{s.name: L(f"cmd.param.{s.name}") for s in offered})(func)
        return app_commands.choices(**{s.name: c for s in offered if (c := s.choices()) is not None})(func)

    return decorate


def overrides(**given: Any) -> dict[str, Any]:
    """The options given, as ``GameSettings`` fields (durations read, choices unwrapped;
    ReplyError for a length that cannot be read). Options that are not fields are left
    to the command."""
    by_name = {s.name: s for s in options(None)}
    return {s.field: s.value(v) for name, v in given.items() if v is not None and (s := by_name[name]).field is not None}


def option_value(name: str, given: Any) -> Any:
    """One option's value as its setting reads it, None when not given."""
    return None if given is None else next(s for s in options(None) if s.name == name).value(given)


def lines(s: GameSettings, locale: str, ai: int, names: tuple[str, ...] | None = None) -> list[str]:
    """The settings embed's lines (of the settings ``names`` only, when given)."""
    out = []
    for setting in SETTINGS:
        if setting.field is None or (names is not None and setting.name not in names):
            continue
        line = (setting.line or setting.plain_line)(s, locale, ai)
        if line:
            out.append(line)
    return out


def catalogue_keys() -> set[str]:
    """Every catalogue key the settings' options, choices and lines use."""
    return {key for s in SETTINGS for key in s.catalogue_keys()}

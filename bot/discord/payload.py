"""The one typed layer between what arrives from Discord and the handlers.

Every slash command's options, every component's custom id and select values, and every
form's fields are checked here against what the bot declared (the command's parameters,
the component's template and the options on its message, the form's fields) before any
handler runs. A value Discord would not send (a modified client, a forged request, a
command whose options an admin's old settings left out of date) is refused with a
localized ephemeral reply (``input.*``), logged at INFO, and nothing is stored.

Where it runs, all through discord.py's public hooks:

* a command or an autocomplete: ``CommandTree.interaction_check`` (``wolf_tree.WolfTree``),
  which discord.py awaits before it reads the options into a namespace;
* a component: the item's ``interaction_check`` (the :class:`Checked` mixin every
  component of the bot begins with), which discord.py awaits after building the item
  from its custom id and before its callback; a component no item takes (no template
  matches, or it is not on the message) is answered from ``on_interaction``
  (:func:`unclaimed_component`);
* a form: :func:`check_form`, before its handler reads a field (forms are routed by
  custom id from ``on_interaction``; any other form is answered there).

The custom ids' digit groups are written with :data:`NUMBER` (at most 20 digits), so an
item's ``from_custom_id`` always reads them; their bounds are checked here, by group
name (:data:`FIELDS`).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Opt

from bot.discord import answering
from bot.discord.errors import ReplyError, describe, handle_error
from bot.features.seasons.seasons import MAX_SEASON
from bot.features.stats.leaderboard import MAX_MIN_GAMES, MAX_PAGE
from bot.i18n import t

log = logging.getLogger("wolfhowl.discord.payload")

# A custom id's number: short enough that int() always reads it (bounds: FIELDS).
NUMBER = r"[0-9]{1,20}"
# Discord's limits (https://discord.com/developers/docs/interactions/application-commands,
# .../components/reference): integer options within ±2**53, strings up to 6,000
# characters, custom ids up to 100, select values up to 100 and 25 of them.
MAX_SAFE_INT = 2**53
MAX_STRING = 6000
MAX_CUSTOM_ID = 100
MAX_VALUE = 100
MAX_VALUES = 25
ID_MAX = 2**63 - 1  # a snowflake or a database id: a signed 64-bit integer
MAX_SNOWFLAKE_DIGITS = 20
# Bounds of the small numbers a custom id carries.
MAX_ROUND = 10_000
MAX_SEAT = 100
MAX_AMOUNT = 1_000


class PayloadError(ReplyError):
    """A value Discord would not send, refused before any handler runs. ``detail`` is
    for the log (never shown: it may quote what was sent)."""

    def __init__(self, key: str, detail: str = "", **params: Any) -> None:
        super().__init__(key, **params)
        self.detail = detail

    def text(self, locale: str) -> str:
        params = dict(self.params)
        if "kind" in params:  # what the option must be, in the reader's words
            params["kind"] = t(f"input.kind.{params['kind']}", locale)
        key = params.pop("option_key", None)
        if key is not None:  # the option as the reader's Discord names it
            params["option"] = t(key, locale)
        return t(self.key, locale, **params)


async def refuse(interaction: discord.Interaction, error: PayloadError) -> None:
    """Answer ``interaction`` with the refusal (an autocomplete with no suggestions)."""
    answering.hold(interaction)
    log.info("refused a malformed payload (%s): %s", describe(interaction), error.detail[:300])
    if interaction.type is discord.InteractionType.autocomplete:
        try:
            await interaction.response.autocomplete([])
        except discord.HTTPException:
            log.info("could not answer a refused autocomplete (%s)", describe(interaction))
        return
    await handle_error(interaction, error)


def _shown(name: Any) -> str:
    """An option's name as sent, safe to quote back."""
    text = name if isinstance(name, str) else repr(name)
    return re.sub(r"[`*_~|<>@#\\\n]", "", text)[:32] or "?"


# -- commands -----------------------------------------------------------------


def check_command(tree: app_commands.CommandTree[Any], interaction: discord.Interaction) -> None:
    """A slash command's (or its autocomplete's) data against the command it names: a
    PayloadError when Discord would not have sent it."""
    data = interaction.data
    if not isinstance(data, dict):
        raise PayloadError("input.command_unknown", "no data")
    name = data.get("name")
    command: Any = tree.get_command(name) if isinstance(name, str) and data.get("type", 1) == 1 else None
    if command is None:
        raise PayloadError("input.command_unknown", f"command {name!r}")
    resolved = data.get("resolved", {})
    if not isinstance(resolved, dict):
        raise PayloadError("input.command_unknown", "resolved is not an object")
    options = _option_list(data.get("options", []))
    while isinstance(command, app_commands.Group):
        sub = options[0] if len(options) == 1 else None
        child = command.get_command(sub["name"]) if sub is not None and isinstance(sub.get("name"), str) else None
        wanted = 2 if isinstance(child, app_commands.Group) else 1
        if sub is None or child is None or sub.get("type") != wanted:
            raise PayloadError("input.command_unknown", f"subcommand of /{command.qualified_name}: {options!r:.200}")
        command, options = child, _option_list(sub.get("options", []))
    autocomplete = interaction.type is discord.InteractionType.autocomplete
    _check_options(command, options, resolved, autocomplete)


def _option_list(options: Any) -> list[dict[str, Any]]:
    if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
        raise PayloadError("input.command_unknown", f"options: {options!r:.200}")
    return options


def _check_options(command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]], resolved: dict[str, Any], autocomplete: bool) -> None:
    params = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    focused = 0
    for option in options:
        name = option.get("name")
        param = params.get(name) if isinstance(name, str) else None
        if param is None or name in seen:
            raise PayloadError("input.option_unknown", f"/{command.qualified_name} option {name!r}", option=_shown(name))
        seen.add(param.display_name)
        shown = param.display_name
        if option.get("type") != param.type.value or "value" not in option:
            raise PayloadError("input.option_type", f"/{command.qualified_name} {shown}: {option!r:.200}", kind=_kind(param.type), **_named(param))
        if option.get("focused", False) is not False:
            # An autocomplete's focused value is what is typed so far: always a string.
            if not (autocomplete and option["focused"] is True and param.autocomplete and isinstance(option["value"], str) and len(option["value"]) <= MAX_STRING):
                raise PayloadError("input.option_type", f"/{command.qualified_name} {shown} focused: {option!r:.200}", kind=_kind(Opt.string), **_named(param))
            focused += 1
            continue
        _check_value(param, option["value"], resolved)
    if autocomplete and focused != 1:
        raise PayloadError("input.command_unknown", f"/{command.qualified_name}: {focused} focused options")
    missing = [p for p in command.parameters if p.required and p.display_name not in seen]
    if missing and not autocomplete:
        raise PayloadError("input.option_missing", f"/{command.qualified_name} without {missing[0].display_name}", **_named(missing[0]))


def _named(param: app_commands.Parameter) -> dict[str, Any]:
    """An option's name for a refusal: its catalogue key when it has one."""
    key = param.locale_name.extras.get("key") if param.locale_name is not None else None
    return {"option": param.display_name} | ({"option_key": key} if isinstance(key, str) else {})


def _kind(kind: Opt) -> str:
    return {Opt.integer: "integer", Opt.number: "number", Opt.boolean: "boolean", Opt.user: "user"}.get(kind, "string" if kind is Opt.string else "entity")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_value(param: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> None:
    shown, kind = param.display_name, param.type

    def wrong() -> PayloadError:  # (built only when refused: its words are looked up)
        return PayloadError("input.option_type", f"{shown}: {value!r:.100}", kind=_kind(kind), **_named(param))

    if kind is Opt.string:
        if not isinstance(value, str) or len(value) > MAX_STRING:
            raise wrong()
    elif kind is Opt.integer:
        if not _is_int(value):
            raise wrong()
    elif kind is Opt.number:
        if not (_is_int(value) or isinstance(value, float)) or not math.isfinite(value):
            raise wrong()
    elif kind is Opt.boolean:
        if not isinstance(value, bool):
            raise wrong()
    else:
        _check_entity(param, value, resolved)
        return
    choices = [c.value for c in param.choices]
    if choices and value not in choices:
        raise PayloadError("input.option_choice", f"{shown}: {value!r:.100} not in {choices}", **_named(param))
    # Discord's own bounds (±2**53) where the command declares none.
    low = param.min_value if param.min_value is not None else -MAX_SAFE_INT
    high = param.max_value if param.max_value is not None else MAX_SAFE_INT
    if isinstance(value, int | float) and not low <= value <= high:
        raise PayloadError("input.option_range", f"{shown}: {value!r:.100} outside {low}..{high}", low=low, high=high, **_named(param))


# Where Discord puts the object an entity option names (a mentionable: a user or a role).
ENTITY_SECTIONS = {Opt.user: ("users",), Opt.channel: ("channels",), Opt.role: ("roles",), Opt.mentionable: ("users", "roles"), Opt.attachment: ("attachments",)}


def _check_entity(param: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> None:
    """A user (channel, role…) option is its id, and Discord sends the object itself in
    ``resolved``: without it there is only an id, which no handler can show or check."""
    shown = param.display_name
    if snowflake(value) is None:
        raise PayloadError("input.option_type", f"{shown}: {value!r:.100}", kind=_kind(param.type), **_named(param))
    for section in ENTITY_SECTIONS.get(param.type, ()):
        found = resolved.get(section)
        entry = found.get(value) if isinstance(found, dict) else None
        if isinstance(entry, dict) and str(entry.get("id")) == value and _entry_ok(section, entry, resolved, value):
            return
    raise PayloadError("input.option_unresolved", f"{shown}: {value} not in resolved", **_named(param))


def _entry_ok(section: str, entry: dict[str, Any], resolved: dict[str, Any], key: str) -> bool:
    """The fields discord.py reads of a resolved user are there (and of its member, if
    any: a user of the server comes with one)."""
    if section != "users":
        return True
    members = resolved.get("members", {})
    member = members.get(key) if isinstance(members, dict) else False
    return isinstance(entry.get("username"), str) and (member is None or (isinstance(member, dict) and isinstance(member.get("roles", []), list)))


def snowflake(value: Any) -> int | None:
    """``value`` as a Discord id (a string of up to 20 digits, within 64 bits), or None."""
    if not isinstance(value, str) or not value.isascii() or not value.isdecimal() or len(value) > MAX_SNOWFLAKE_DIGITS:
        return None
    number = int(value)
    return number if 0 < number < 2**64 else None


# -- components ---------------------------------------------------------------


def _data(interaction: discord.Interaction) -> dict[str, Any]:
    """The interaction's data as sent (an object; anything else reads as empty)."""
    data: Any = interaction.data
    return data if isinstance(data, dict) else {}


def _bounded(low: int, high: int) -> Callable[[str], int | None]:
    def read(text: str) -> int | None:
        number = int(text)  # (a NUMBER of the template: at most 20 ASCII digits)
        return number if low <= number <= high else None

    return read


def _seats(text: str) -> list[int] | None:
    parts = [p for p in text.split("-") if p]
    seats = [_bounded(0, MAX_SEAT)(p) if p.isascii() and p.isdecimal() and len(p) <= 3 else None for p in parts]
    return None if None in seats or len(seats) > MAX_VALUES else [s for s in seats if s is not None]


# A custom id's typed fields, by the name of their group in the templates.
FIELDS: dict[str, Callable[[str], Any]] = {
    "game": _bounded(1, ID_MAX), "guild": _bounded(1, ID_MAX), "user": _bounded(1, ID_MAX), "offer": _bounded(1, ID_MAX),
    "round": _bounded(0, MAX_ROUND), "seat": _bounded(0, MAX_SEAT), "min": _bounded(1, MAX_MIN_GAMES), "page": _bounded(0, MAX_PAGE),
    "season": _bounded(1, MAX_SEASON), "targets": _seats,
}  # fmt: skip


def custom_id_fields(pattern: re.Pattern[str], custom_id: Any) -> dict[str, Any]:
    """The typed fields of ``custom_id`` under ``pattern`` (a component's template, or a
    form's): a PayloadError when it does not match or a number is out of its bounds."""
    match = pattern.fullmatch(custom_id) if isinstance(custom_id, str) and len(custom_id) <= MAX_CUSTOM_ID else None
    if match is None:
        raise PayloadError("input.component_unknown", f"custom id {custom_id!r:.120}")
    fields: dict[str, Any] = {}
    for name, text in match.groupdict().items():
        if text is None:  # an optional part the id does not have
            fields[name] = None
            continue
        read = FIELDS.get(name)
        value = text if read is None else read(text)
        if value is None:
            raise PayloadError("input.component_unknown", f"custom id {custom_id!r}: {name} out of bounds")
        fields[name] = value
    return fields


# What a select's values are, typed (each parser: None when the text is not one).
def seat_value(text: str) -> int | None:
    return _bounded(0, MAX_SEAT)(text) if text.isascii() and text.isdecimal() and len(text) <= 3 else None


def amount_value(text: str) -> int | None:
    return _bounded(0, MAX_AMOUNT)(text) if text.isascii() and text.isdecimal() and len(text) <= 4 else None


def word_value(text: str) -> str | None:
    return text if re.fullmatch(r"[a-z_]{1,40}", text) else None


def guess_value(text: str) -> tuple[str, str] | None:
    what, sep, value = text.partition(":")
    return (what, value) if sep and word_value(what) and re.fullmatch(r"[a-z_]{1,40}", value) else None


@dataclass(frozen=True, slots=True)
class ValueType:
    """How a select's values are read: ``read`` gives the typed value, or None."""

    read: Callable[[str], Any]


SEAT, AMOUNT, SKILL, GUESS = ValueType(seat_value), ValueType(amount_value), ValueType(word_value), ValueType(guess_value)


def _on_message(interaction: discord.Interaction, custom_id: str) -> Any:
    """The component ``custom_id`` on the message it was used on, or None."""
    message = interaction.message
    rows: Iterable[Any] = message.components if message is not None else ()
    for row in rows:
        for component in getattr(row, "children", [row]):
            if getattr(component, "custom_id", None) == custom_id:
                return component
    return None


@dataclass(frozen=True, slots=True)
class Used:
    """A component's use, checked: its custom id's typed fields and the select's typed
    values (empty for a button)."""

    fields: Mapping[str, Any]
    values: list[Any]


def check_component(interaction: discord.Interaction, template: re.Pattern[str], kind: ValueType | None) -> Used:
    """A component's data against its template and the component on its message: the
    custom id's fields within bounds, and a select's values among the options shown
    (``kind`` reads each into its type). A PayloadError when Discord would not send it."""
    data = _data(interaction)
    custom_id = data.get("custom_id")
    fields = custom_id_fields(template, custom_id)
    shown = _on_message(interaction, str(custom_id))
    if shown is None or data.get("component_type") != shown.type.value:
        raise PayloadError("input.component_unknown", f"{custom_id!r} is not on the message as type {data.get('component_type')!r}")
    if not isinstance(shown, discord.SelectMenu):
        if "values" in data:
            raise PayloadError("input.component_value", f"{custom_id!r}: values for a button")
        return Used(fields, [])
    values = data.get("values")
    offered = {o.value for o in shown.options}
    low, high = shown.min_values, shown.max_values
    if (
        "resolved" in data
        or not isinstance(values, list)
        or not low <= len(values) <= min(high, MAX_VALUES)
        or len(set(map(repr, values))) != len(values)
        or not all(isinstance(v, str) and len(v) <= MAX_VALUE and v in offered for v in values)
    ):
        raise PayloadError("input.component_value", f"{custom_id!r}: values {values!r:.200} (offered {sorted(offered)!r:.200})")
    typed = [v if kind is None else kind.read(v) for v in values]
    if None in typed:
        raise PayloadError("input.component_value", f"{custom_id!r}: values {values!r:.200} not of their type")
    return Used(fields, typed)


class Checked:
    """The first base of every component of the bot (a ``DynamicItem``): discord.py
    awaits an item's ``interaction_check`` after building it from its custom id and
    before its callback. Here it runs :func:`check_component`; a refusal is answered at
    once and the callback does not run. The callback reads the typed values in
    ``used.values`` (``value_type`` reads each: a seat, a skill…)."""

    value_type: ClassVar[ValueType | None] = None
    used: Used

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        template: re.Pattern[str] = getattr(self, "template")  # noqa: B009  (the DynamicItem's)
        try:
            self.used = check_component(interaction, template, type(self).value_type)
        except PayloadError as exc:
            await refuse(interaction, exc)
            return False
        return True


def claims(items: Iterable[type[discord.ui.DynamicItem[Any]]], interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component's use to one of ``items``: a template
    matches its custom id and the component is on the message (as discord.py's
    ``ViewStore`` decides; it drops any other without a word)."""
    data = _data(interaction)
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or interaction.message is None:
        return False
    shown = _on_message(interaction, custom_id)
    if shown is None or data.get("component_type") != shown.type.value:
        return False
    # (discord.py keeps a class's compiled template there; DynamicItem.template is its
    # instances' view of it.)
    return any(getattr(item, "__discord_ui_compiled_template__").fullmatch(custom_id) for item in items)  # noqa: B009


async def unclaimed_component(items: Iterable[type[discord.ui.DynamicItem[Any]]], interaction: discord.Interaction) -> bool:
    """Answer a component's use no item takes (an unknown custom id, one not on its
    message): refused, rather than left for Discord to call "This interaction failed".
    True when it was one."""
    if interaction.type is not discord.InteractionType.component or claims(items, interaction):
        return False
    data = _data(interaction)
    await refuse(interaction, PayloadError("input.component_unknown", f"no item takes {data.get('custom_id')!r:.120}"))
    return True


# -- forms --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Form:
    """A submitted form, checked: its custom id's typed fields and its text fields."""

    fields: Mapping[str, Any]
    texts: list[str]


def check_form(interaction: discord.Interaction, pattern: re.Pattern[str], max_length: int) -> Form:
    """A form's data against the form the bot draws (``pattern``: its custom id; one or
    more text fields of at most ``max_length`` characters): a PayloadError otherwise."""
    data = _data(interaction)
    fields = custom_id_fields(pattern, data.get("custom_id"))
    rows = data.get("components")
    texts: list[str] = []
    for row in rows if isinstance(rows, list) else [None]:
        inner = row.get("components") if isinstance(row, dict) else None
        for field in inner if isinstance(inner, list) else [None]:
            value = field.get("value") if isinstance(field, dict) else None
            if not isinstance(value, str) or len(value) > max_length or not isinstance(field.get("custom_id"), str):  # type: ignore[union-attr]
                raise PayloadError("input.form_field", f"form field {field!r:.200}")
            texts.append(value)
    if not texts:
        raise PayloadError("input.form_field", "a form without fields")
    return Form(fields, texts)

"""Registered application commands: storage, Discord's validation, lookup.

A bot's ``tree.sync()`` bulk-overwrites commands; Discord validates them
(names, lengths, option ordering, nesting, counts) and answers with the stored
objects including ids.  User-side actions later resolve a path such as
``"game admin kick"`` against what was *registered*, never against the bot's
Python code, so a command the bot forgot to sync cannot be invoked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import ApiError, FormErrors
from .state import SnowflakeFactory

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
CHAT_INPUT = 1
MAX_OPTIONS = 25
MAX_CHOICES = 25
# Names, descriptions and choices of one command, all its options and subcommands
# counted (the longest localization of each): 4000, as Discord's documentation of
# application commands states it (discord-api-docs#5343 for the counting).
MAX_TOTAL_CHARS = 4000
MAX_CHAT_COMMANDS = 100
MAX_CONTEXT_COMMANDS = 5
INTEGRATION_TYPES = (0, 1)
CONTEXT_TYPES = (0, 1, 2)

_NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)


class CommandNotFound(LookupError):
    """The user typed a command that is not registered/visible here."""


@dataclass
class StoredCommand:
    id: int
    guild_id: int | None
    payload: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.payload["name"])

    @property
    def type(self) -> int:
        return int(self.payload.get("type", CHAT_INPUT))


@dataclass
class ResolvedCommand:
    """A command path resolved down to the leaf whose options the user fills."""

    command: StoredCommand
    group: str | None
    subcommand: str | None
    options: list[dict[str, Any]]

    @property
    def qualified_name(self) -> str:
        return " ".join(p for p in (self.command.name, self.group, self.subcommand) if p)

    def wrap(self, leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Nests leaf options into subcommand/group option objects for the payload."""
        options = leaf_options
        if self.subcommand is not None:
            options = [{"name": self.subcommand, "type": SUB_COMMAND, "options": options}]
        if self.group is not None:
            options = [{"name": self.group, "type": SUB_COMMAND_GROUP, "options": options}]
        return options


class CommandStore:
    def __init__(self, application_id: int, snowflakes: SnowflakeFactory) -> None:
        self._app_id = application_id
        self._snowflakes = snowflakes
        self._scopes: dict[int | None, dict[tuple[str, int], StoredCommand]] = {}

    # -- REST-facing ---------------------------------------------------
    def bulk_overwrite(
        self, guild_id: int | None, payloads: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        errors = FormErrors()
        seen: set[tuple[str, int]] = set()
        for i, payload in enumerate(payloads):
            _validate_command(payload, (i,), errors)
            key = (str(payload.get("name")), int(payload.get("type", CHAT_INPUT)))
            if key in seen:
                errors.add(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({key[0]})",
                )
            seen.add(key)
        _validate_counts(payloads, errors)
        errors.raise_if_any()
        old = self._scopes.get(guild_id, {})
        new: dict[tuple[str, int], StoredCommand] = {}
        for payload in payloads:
            key = (str(payload["name"]), int(payload.get("type", CHAT_INPUT)))
            prior = old.get(key)
            new[key] = self._store(guild_id, payload, prior.id if prior else None)
        self._scopes[guild_id] = new
        return [self.to_payload(c) for c in new.values()]

    def upsert(self, guild_id: int | None, payload: dict[str, Any]) -> dict[str, Any]:
        errors = FormErrors()
        _validate_command(payload, (), errors)
        errors.raise_if_any()
        scope = self._scopes.setdefault(guild_id, {})
        key = (str(payload["name"]), int(payload.get("type", CHAT_INPUT)))
        prior = scope.get(key)
        scope[key] = self._store(guild_id, payload, prior.id if prior else None)
        return self.to_payload(scope[key])

    def listing(self, guild_id: int | None) -> list[dict[str, Any]]:
        return [self.to_payload(c) for c in self._scopes.get(guild_id, {}).values()]

    def get(self, guild_id: int | None, command_id: int) -> StoredCommand:
        for command in self._scopes.get(guild_id, {}).values():
            if command.id == command_id:
                return command
        raise ApiError.of(10063)

    def delete(self, guild_id: int | None, command_id: int) -> None:
        command = self.get(guild_id, command_id)
        del self._scopes[guild_id][(command.name, command.type)]

    def _store(
        self, guild_id: int | None, payload: dict[str, Any], command_id: int | None
    ) -> StoredCommand:
        data = dict(payload)
        data.setdefault("type", CHAT_INPUT)
        perms = data.get("default_member_permissions")
        data["default_member_permissions"] = str(perms) if perms is not None else None
        return StoredCommand(command_id or self._snowflakes.next(), guild_id, data)

    def to_payload(self, command: StoredCommand) -> dict[str, Any]:
        payload = dict(command.payload)
        payload.update(
            id=str(command.id),
            application_id=str(self._app_id),
            version=str(command.id),
            description=payload.get("description", ""),
        )
        if command.guild_id is not None:
            payload["guild_id"] = str(command.guild_id)
        return payload

    # -- user-facing ---------------------------------------------------
    def visible(self, guild_id: int | None) -> list[StoredCommand]:
        """Guild commands shadow global ones with the same name in that guild."""
        found = dict(self._scopes.get(None, {}))
        if guild_id is not None:
            found.update(self._scopes.get(guild_id, {}))
        return list(found.values())

    def resolve(
        self, path: str, *, guild_id: int | None, locale: str | None = None
    ) -> ResolvedCommand:
        """Finds ``path`` ("cmd [group] [sub]"); localized names for ``locale`` work too."""
        parts = path.split()
        if not parts:
            raise CommandNotFound("empty command path")
        candidates = [c for c in self.visible(guild_id) if c.type == CHAT_INPUT]
        command = next((c for c in candidates if _matches(c.payload, parts[0], locale)), None)
        if command is None:
            scope = f"guild {guild_id}" if guild_id else "DMs"
            names = sorted(c.name for c in candidates)
            raise CommandNotFound(
                f"/{parts[0]} is not registered for {scope} (registered: {names})"
            )
        options = list(command.payload.get("options") or [])
        group = subcommand = None
        for part in parts[1:]:
            node = next(
                (o for o in options if o.get("type") in (1, 2) and _matches(o, part, locale)), None
            )
            if node is None:
                raise CommandNotFound(f"/{command.name} has no subcommand {part!r}")
            if node["type"] == SUB_COMMAND_GROUP:
                group = node["name"]
            else:
                subcommand = node["name"]
            options = list(node.get("options") or [])
        if any(o.get("type") in (1, 2) for o in options):
            raise CommandNotFound(f"/{path} needs a subcommand")
        return ResolvedCommand(command, group, subcommand, options)


def _matches(obj: dict[str, Any], name: str, locale: str | None) -> bool:
    if obj.get("name") == name:
        return True
    localized = obj.get("name_localizations") or {}
    return bool(locale and localized.get(locale) == name)


def _validate_counts(payloads: list[dict[str, Any]], errors: FormErrors) -> None:
    by_type: dict[int, int] = {}
    for payload in payloads:
        t = int(payload.get("type", CHAT_INPUT))
        by_type[t] = by_type.get(t, 0) + 1
    if by_type.get(CHAT_INPUT, 0) > MAX_CHAT_COMMANDS:
        errors.add(
            (),
            "APPLICATION_COMMANDS_TOO_MANY",
            f"Maximum number of application commands reached ({MAX_CHAT_COMMANDS})",
        )
    for t in (2, 3):
        if by_type.get(t, 0) > MAX_CONTEXT_COMMANDS:
            errors.add(
                (),
                "APPLICATION_COMMANDS_TOO_MANY",
                f"Maximum number of context menu commands reached ({MAX_CONTEXT_COMMANDS})",
            )


def _validate_command(
    payload: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors
) -> None:
    ctype = int(payload.get("type", CHAT_INPUT))
    name = payload.get("name")
    if not isinstance(name, str) or (
        ctype == CHAT_INPUT and (not _NAME.match(name) or name != name.lower())
    ):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    elif ctype != CHAT_INPUT and not 1 <= len(name) <= 32:
        errors.bad_length((*path, "name"), 1, 32)
    _validate_installs(payload, path, errors)
    description = payload.get("description") or ""
    if ctype == CHAT_INPUT and not 1 <= len(description) <= 100:
        errors.bad_length((*path, "description"), 1, 100)
    options = payload.get("options") or []
    if ctype == CHAT_INPUT:
        _validate_localizations(payload, path, errors)
        _validate_options(options, (*path, "options"), errors, depth=0)
        if _total_chars(payload) > MAX_TOTAL_CHARS:
            errors.add(
                path,
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({MAX_TOTAL_CHARS})",
            )


def _validate_installs(payload: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors) -> None:
    """``integration_types`` (0 GUILD_INSTALL, 1 USER_INSTALL) and ``contexts`` (0 GUILD,
    1 BOT_DM, 2 PRIVATE_CHANNEL): lists of those values, not empty
    (https://discord.com/developers/docs/interactions/application-commands#contexts)."""
    for key, allowed in (("integration_types", INTEGRATION_TYPES), ("contexts", CONTEXT_TYPES)):
        value = payload.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not value:
            errors.add((*path, key), "BASE_TYPE_REQUIRED", f"{key} must be a non-empty list")
            continue
        for i, item in enumerate(value):
            if isinstance(item, bool) or item not in allowed:
                errors.add((*path, key, i), "ENUM_TYPE_COERCE", f"Value \"{item}\" is not a valid enum value.")


def _validate_options(
    options: list[dict[str, Any]], path: tuple[str | int, ...], errors: FormErrors, depth: int
) -> None:
    if len(options) > MAX_OPTIONS:
        errors.max_length(path, MAX_OPTIONS)
    names: set[str] = set()
    seen_optional = False
    kinds = {o.get("type") in (1, 2) for o in options}
    if len(kinds) > 1:
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-commands cannot be mixed with other options",
        )
    for i, opt in enumerate(options):
        p = (*path, i)
        otype = opt.get("type")
        name = opt.get("name")
        if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
            errors.add((*p, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Option name is invalid")
        elif name in names:
            errors.add(
                (*p, "name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(str(name))
        if not 1 <= len(opt.get("description") or "") <= 100:
            errors.bad_length((*p, "description"), 1, 100)
        _validate_localizations(opt, p, errors)
        if otype == SUB_COMMAND_GROUP:
            if depth > 0:
                errors.add(
                    (*p, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Groups can only be nested in commands",
                )
            subs = opt.get("options") or []
            if any(s.get("type") != SUB_COMMAND for s in subs):
                errors.add(
                    (*p, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Groups may only contain sub-commands",
                )
            _validate_options(subs, (*p, "options"), errors, depth + 1)
        elif otype == SUB_COMMAND:
            _validate_options(opt.get("options") or [], (*p, "options"), errors, depth + 2)
        else:
            if opt.get("required"):
                if seen_optional:
                    errors.add(
                        (*p, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                seen_optional = True
            _validate_choices(opt, p, errors)


def _validate_choices(opt: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors) -> None:
    choices = opt.get("choices") or []
    if choices and opt.get("autocomplete"):
        errors.add(
            (*path, "autocomplete"),
            "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
            "Autocomplete cannot be used with choices",
        )
    if len(choices) > MAX_CHOICES:
        errors.max_length((*path, "choices"), MAX_CHOICES)
    for j, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            errors.bad_length((*path, "choices", j, "name"), 1, 100)
        for loc, text in (choice.get("name_localizations") or {}).items():
            if not 1 <= len(str(text)) <= 100:
                errors.bad_length((*path, "choices", j, "name_localizations", loc), 1, 100)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errors.max_length((*path, "choices", j, "value"), 100)
    low, high = opt.get("min_value"), opt.get("max_value")
    if low is not None and high is not None and low > high:
        errors.add((*path, "min_value"), "NUMBER_TYPE_MAX", "min_value must not exceed max_value")
    low_len, high_len = opt.get("min_length"), opt.get("max_length")
    if low_len is not None and not 0 <= low_len <= 6000:
        errors.add((*path, "min_length"), "NUMBER_TYPE_MAX", "min_length must be within 0..6000")
    if high_len is not None and not 1 <= high_len <= 6000:
        errors.add((*path, "max_length"), "NUMBER_TYPE_MAX", "max_length must be within 1..6000")


def _validate_localizations(
    obj: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors
) -> None:
    """Localized names and descriptions follow the same rules as the defaults."""
    for loc, name in (obj.get("name_localizations") or {}).items():
        if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
            errors.add(
                (*path, "name_localizations", loc),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            )
    for loc, text in (obj.get("description_localizations") or {}).items():
        if not 1 <= len(str(text)) <= 100:
            errors.bad_length((*path, "description_localizations", loc), 1, 100)


def _total_chars(obj: dict[str, Any]) -> int:
    """Discord counts names, descriptions and choice names/values; of a string and its
    localizations only the longest counts (discord-api-docs#5343)."""

    def longest(key: str) -> int:
        texts = [str(obj.get(key, "")), *(obj.get(f"{key}_localizations") or {}).values()]
        return max(len(t) for t in texts)

    total = longest("name") + longest("description")
    for choice in obj.get("choices") or []:
        names = [str(choice.get("name", "")), *(choice.get("name_localizations") or {}).values()]
        total += max(len(n) for n in names) + len(str(choice.get("value", "")))
    for opt in obj.get("options") or []:
        total += _total_chars(opt)
    return total

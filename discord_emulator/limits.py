"""Validation of message-like payloads against Discord's documented limits.

These are the limits a bot most plausibly violates (long game logs, big
embeds, too many choices, duplicated custom_ids).  Every violation is reported
the way Discord does: HTTP 400, JSON code 50035 "Invalid Form Body" with a
nested ``errors`` object, so discord.py raises ``HTTPException`` whose text
names the offending field.
"""

from __future__ import annotations

from typing import Any

from .errors import ApiError, FormErrors
from .state import FLAG_COMPONENTS_V2, iter_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
MAX_CHOICES = 25
SELECT_TYPES = {3, 5, 6, 7, 8}

# (key, limit) for simple string fields inside an embed.
_EMBED_STRING_LIMITS = (("title", 256), ("description", 4096))


def validate_message_payload(
    payload: dict[str, Any], errors: FormErrors | None = None, *, current_flags: int = 0
) -> FormErrors:
    """Checks content, embeds and components of a create/edit payload.

    ``current_flags`` are the flags of the message being edited (an edit of a
    Components V2 message need not repeat the flag).  Returns the collected
    errors so callers can add their own before raising.
    """
    errors = errors or FormErrors()
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > MAX_CONTENT:
            errors.max_length(("content",), MAX_CONTENT)
    embeds = payload.get("embeds")
    if embeds:
        _validate_embeds(embeds, errors)
    components = payload.get("components")
    if components:
        flags = int(payload.get("flags") or 0) | current_flags
        if flags & FLAG_COMPONENTS_V2:
            _validate_v2(payload, errors)
        else:
            _validate_legacy_components(components, errors)
        _validate_custom_ids(components, errors)
    return errors


def _validate_embeds(embeds: list[dict[str, Any]], errors: FormErrors) -> None:
    if len(embeds) > MAX_EMBEDS:
        errors.max_length(("embeds",), MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        path: tuple[str | int, ...] = ("embeds", i)
        for key, limit in _EMBED_STRING_LIMITS:
            value = embed.get(key)
            if value is not None:
                total += len(value)
                if len(value) > limit:
                    errors.max_length((*path, key), limit)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.max_length((*path, "fields"), 25)
        for j, fld in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                value = fld.get(key)
                if value is None or value == "":
                    errors.required((*path, "fields", j, key))
                    continue
                total += len(value)
                if len(value) > limit:
                    errors.max_length((*path, "fields", j, key), limit)
        for obj, key, limit in (("footer", "text", 2048), ("author", "name", 256)):
            sub = embed.get(obj)
            if sub is None:
                continue
            value = sub.get(key)
            if not value:
                errors.required((*path, obj, key))
                continue
            total += len(value)
            if len(value) > limit:
                errors.max_length((*path, obj, key), limit)
        color = embed.get("color")
        if color is not None and not 0 <= int(color) <= 0xFFFFFF:
            errors.add((*path, "color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215.")
    if total > MAX_EMBED_TOTAL:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


def _validate_legacy_components(components: list[dict[str, Any]], errors: FormErrors) -> None:
    if len(components) > 5:
        errors.max_length(("components",), 5)
    for i, row in enumerate(components):
        path: tuple[str | int, ...] = ("components", i)
        if row.get("type") != 1:
            errors.add(
                (*path, "type"), "UNION_TYPE_CHOICES", "Top-level components must be action rows."
            )
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            errors.bad_length((*path, "components"), 1, 5)
        if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
            errors.add(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            _validate_interactive(child, (*path, "components", j), errors)


def _validate_v2(payload: dict[str, Any], errors: FormErrors) -> None:
    if payload.get("content") or payload.get("embeds"):
        errors.add(
            ("content",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
        )
    flat = iter_components(payload.get("components") or [])
    if len(flat) > 40:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "Total components must be 40 or fewer.",
        )
    for comp in flat:
        if comp.get("type") == 2 or comp.get("type") in SELECT_TYPES:
            _validate_interactive(comp, ("components",), errors)


def _validate_interactive(
    comp: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors
) -> None:
    ctype = comp.get("type")
    custom_id = comp.get("custom_id")
    if ctype == 2:
        label = comp.get("label")
        if label is not None and len(label) > 80:
            errors.max_length((*path, "label"), 80)
        if comp.get("style") == 5:
            if not comp.get("url"):
                errors.required((*path, "url"))
            if custom_id is not None:
                errors.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
            return
        if comp.get("style") == 6:
            return
    if ctype == 2 or ctype in SELECT_TYPES:
        if not custom_id:
            errors.required((*path, "custom_id"))
        elif len(custom_id) > 100:
            errors.max_length((*path, "custom_id"), 100)
    if ctype in SELECT_TYPES:
        placeholder = comp.get("placeholder")
        if placeholder is not None and len(placeholder) > 150:
            errors.max_length((*path, "placeholder"), 150)
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= low <= 25 or not 1 <= high <= 25 or low > high:
            errors.add(
                (*path, "max_values"),
                "BASE_TYPE_BAD_VALUE",
                "min_values/max_values must be within 0..25 and ordered",
            )
    if ctype == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.bad_length((*path, "options"), 1, 25)
        for k, opt in enumerate(options):
            for key in ("label", "value", "description"):
                value = opt.get(key)
                if value is not None and len(value) > 100:
                    errors.max_length((*path, "options", k, key), 100)


def _validate_custom_ids(components: list[dict[str, Any]], errors: FormErrors) -> None:
    seen: set[str] = set()
    for comp in iter_components(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if cid in seen:
            errors.add(
                ("components",),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(cid)


def check_not_empty(
    content: str | None, embeds: list[Any], attachments: list[Any], components: list[Any]
) -> None:
    """Discord rejects messages with nothing to show (code 50006)."""
    if not (content or embeds or attachments or components):
        raise ApiError.of(50006)


def check_files(sizes: list[int]) -> None:
    if len(sizes) > MAX_FILES:
        errors = FormErrors()
        errors.max_length(("files",), MAX_FILES)
        errors.raise_if_any()
    if any(size > MAX_FILE_SIZE for size in sizes):
        raise ApiError.of(40005)


_CHOICE_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 10: (int, float)}


def validate_autocomplete(
    data: dict[str, Any], option_type: int | None = None
) -> list[dict[str, Any]]:
    """Validates an autocomplete callback's ``choices`` and returns them.

    Choice values must match the focused option's type (string/integer/number).
    """
    errors = FormErrors()
    choices = data.get("choices")
    if choices is None:
        errors.required(("data", "choices"))
        errors.raise_if_any()
    assert choices is not None
    if len(choices) > MAX_CHOICES:
        errors.max_length(("data", "choices"), MAX_CHOICES)
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.bad_length(("data", "choices", i, "name"), 1, 100)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errors.max_length(("data", "choices", i, "value"), 100)
        elif value is None:
            errors.required(("data", "choices", i, "value"))
        expected = _CHOICE_TYPES.get(option_type or 0)
        if (
            value is not None
            and expected
            and (isinstance(value, bool) or not isinstance(value, expected))
        ):
            errors.add(
                ("data", "choices", i, "value"),
                "BASE_TYPE_CHOICES",
                "Value type does not match the option",
            )
    errors.raise_if_any()
    return list(choices)


def validate_modal(data: dict[str, Any]) -> None:
    errors = FormErrors()
    title = data.get("title") or ""
    if not 1 <= len(title) <= 45:
        errors.bad_length(("data", "title"), 1, 45)
    custom_id = data.get("custom_id") or ""
    if not 1 <= len(custom_id) <= 100:
        errors.bad_length(("data", "custom_id"), 1, 100)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.bad_length(("data", "components"), 1, 5)
    errors.raise_if_any()

"""A refusal of the service in words. The service raises a
:class:`~bot.core.errors.ServiceError` with a key and plain parameters; this words it in a
reader's language: the ``[svc]`` table's text of its key (``error.x`` is ``svc.x``), a
:class:`~bot.core.errors.WordedError`'s by its own key (a ``reply.error.*``), a
:class:`~bot.core.errors.RuleRefusedError` as the engine's refusals are
(``bot.i18n.refusal_text``). A player named by seat and name reads "#3 Alice", a list as a
list in the reader's language.

Plain text, for every front end: the Discord layer's error handler (``bot.discord.errors``)
adds its own touches to the parameters first (a name escaped, a setting named as the
option typed); the command lines use it as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.errors import (
    FALLBACK,
    NamedSeat,
    RuleRefusedError,
    ServiceError,
    WordedError,
    catalogue_key,
)
from bot.i18n import has_key, refusal_text, t
from bot.render import words


def worded_value(value: Any, locale: str | None) -> Any:
    """A parameter as a reader reads it: a player by seat and name, a list or tuple
    listed in the reader's language (each item worded), anything else as it is."""
    if isinstance(value, NamedSeat):
        return words.seat_name(value.seat, value.name)
    if isinstance(value, list | tuple):
        return words.listing((str(worded_value(v, locale)) for v in value), locale)
    return value


def worded_params(params: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
    return {k: worded_value(v, locale) for k, v in params.items()}


def service_refusal(error: ServiceError, locale: str | None = "en-US", *, params: Mapping[str, Any] | None = None) -> str:
    """``error`` in ``locale``'s words; ``params`` (by default the error's own) as a front
    end has touched them. A phase parameter holds a message key, shown in the same
    language; any other value (a name, typed text) is shown as it is, even if it looks
    like a key."""
    if isinstance(error, RuleRefusedError):
        return refusal_text(error.violation, locale)
    shown = worded_params(error.params if params is None else params, locale)
    if isinstance(error, WordedError):
        return t(error.key, locale, **shown)
    key = catalogue_key(error.key)
    return t(key if has_key(key) else catalogue_key(FALLBACK), locale, **shown)

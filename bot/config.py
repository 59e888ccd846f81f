"""The bot's configuration (pydantic-settings).

Read from ``config.toml`` in the working directory (or the file named by the
``WOLFHOWL_CONFIG`` environment variable), then overridden by ``WOLFHOWL_*`` environment
variables, e.g. ``WOLFHOWL_DATABASE_URL=postgresql+asyncpg://bot@db/wolfhowl``.

Kept small on purpose: the Discord layer extends :class:`Config` with its own fields.

=====================  ====================================  ===========================
field                  default                               meaning
=====================  ====================================  ===========================
database_url           sqlite+aiosqlite:///var/wolfhowl.sqlite3
                                                             SQLite file or PostgreSQL URL
token                  "" (empty)                            Discord bot token
language               en-US                                 default language of new games
day_seconds            86400                                 default Day length
dusk_seconds           86400                                 default Dusk length
morning_seconds        43200                                 default Morning length
reminder_lead_seconds  3600                                  reminder this long before a deadline
=====================  ====================================  ===========================
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal, TypeVar, get_args, get_origin

from pydantic import Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///var/wolfhowl.sqlite3"


def config_path() -> Path:
    """The TOML file read for settings: ``$WOLFHOWL_CONFIG`` or ``./config.toml``."""
    return Path(os.environ.get("WOLFHOWL_CONFIG", "config.toml"))


class Config(BaseSettings):
    """Settings shared by the service layer and the bot."""

    model_config = SettingsConfigDict(env_prefix="WOLFHOWL_", extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL
    token: str = Field(default="", repr=False)
    language: Literal["en-US", "zh-CN", "zh-TW"] = "en-US"
    day_seconds: int = Field(default=86400, ge=60)
    dusk_seconds: int = Field(default=86400, ge=60)
    morning_seconds: int = Field(default=43200, ge=60)
    reminder_lead_seconds: int = Field(default=3600, ge=0)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Highest priority first: explicit arguments, environment, then the TOML file.
        return (
            init_settings,
            env_settings,
            TomlConfigSettingsSource(settings_cls, toml_file=config_path()),
        )


class ConfigError(Exception):
    """The configuration cannot be read; the message says what and where, for a user."""


C = TypeVar("C", bound="Config")

# WOLFHOWL_* variables that are no setting: the file's name, and the test suite's own.
NOT_SETTINGS = frozenset({"WOLFHOWL_CONFIG"})
TEST_PREFIX = "WOLFHOWL_TEST_"
IN_RANGE_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal", "value_error"})


def env_name(field: str) -> str:
    """The environment variable that sets ``field``."""
    return "WOLFHOWL_" + field.upper()


def expected_form(cls: type[Config], field: str, *, in_env: bool) -> str:
    """What a value of ``field`` looks like, said for whoever writes one: in the
    environment a list or a table is written as in TOML/JSON (``[123]``)."""
    info = cls.model_fields.get(field)
    if info is None:
        return ""
    annotation = info.annotation
    origin = get_origin(annotation)
    if origin is list:
        return "a list such as [123456789012345678]" if not in_env else "a list such as [123] (with the brackets)"
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(annotation))
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return "a whole number"
    if annotation is float:
        return "a number"
    return "text"


def _where(cls: type[Config], field: str, path: Path, named_by: str) -> tuple[str, bool]:
    """Who gave ``field`` its value: the environment variable, or the file and key."""
    name = env_name(field)
    if name in os.environ:
        return f"{name}={os.environ[name]!r}", True
    return f"{str(path)!r}{f' ({named_by})' if named_by else ''}, key {field}", False


def _unknown_variables(cls: type[Config]) -> list[str]:
    known = {env_name(f) for f in cls.model_fields} | NOT_SETTINGS
    return sorted(v for v in os.environ if v.upper().startswith("WOLFHOWL_") and v.upper() not in known and not v.upper().startswith(TEST_PREFIX))


def read_config(cls: type[C], *, check_keys: bool = True, named_by: str = "WOLFHOWL_CONFIG", **overrides: object) -> C:
    """``cls`` as the file and the environment give it now, or ConfigError: a file named
    (by ``named_by``: ``WOLFHOWL_CONFIG`` or a command's ``--config``) that does not exist
    (``./config.toml`` may be missing), one that cannot be read or is not TOML, a value
    that does not fit its setting (naming the variable or the file and key, and the form
    expected), and (with ``check_keys``) a key or a ``WOLFHOWL_*`` variable ``cls`` does
    not have: a misspelt ``database_url`` must not leave the bot on the default database."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    path = config_path()
    named = "WOLFHOWL_CONFIG" in os.environ
    label = f"{str(path)!r} ({named_by})" if named else repr(str(path))
    if named and not path.exists():
        raise ConfigError(f"the configuration file {label} does not exist")
    if path.exists():
        try:
            keys = set(tomllib.loads(path.read_text(encoding="utf-8")))
            unknown = sorted(keys - set(cls.model_fields)) if check_keys else []
        except IsADirectoryError:
            raise ConfigError(f"the configuration file {label} is a folder") from None
        except OSError as exc:
            raise ConfigError(f"cannot read {label}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{label} is not UTF-8 text") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{label} is not valid TOML: {exc}") from None
        if unknown:
            raise ConfigError(f"{label} has settings that do not exist: {', '.join(unknown)} (see config.example.toml)")
    if check_keys and (stray := _unknown_variables(cls)):
        raise ConfigError(
            f"environment variables that are no setting: {', '.join(stray)} "
            "(each setting's variable is WOLFHOWL_ and its key in capitals; see config.example.toml)"
        )
    source = named_by if named else ""
    try:
        return cls(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = []
        for e in exc.errors():
            field = str(e["loc"][0]) if e["loc"] else "?"
            if field in overrides:
                where, in_env = f"{field}={overrides[field]!r}", False
            else:
                where, in_env = _where(cls, field, path, source)
            # A value of the right form out of range says so itself; a value of the
            # wrong form is told the form wanted.
            form = "" if e["type"] in IN_RANGE_ERRORS else expected_form(cls, field, in_env=in_env)
            problems.append(f"{where}: {e['msg']}" + (f" (expected {form})" if form else ""))
        raise ConfigError("invalid settings: " + "; ".join(problems)) from None
    except SettingsError as exc:
        # The environment's value of a list (or other complex) setting is not JSON.
        culprit = next((f for f in cls.model_fields if f'"{f}"' in str(exc)), None)
        if culprit is None:
            raise ConfigError(f"invalid settings: {exc}") from None
        where, in_env = _where(cls, culprit, path, source)
        raise ConfigError(f"invalid settings: {where}: cannot be read (expected {expected_form(cls, culprit, in_env=in_env)})") from None


def load_config() -> Config:
    """The configuration as files and environment give it now (see ``read_config``). The
    file also holds the bot's own settings, which are not Config's: ``wolfhowl run`` and
    ``wolfhowl db`` check the keys against the bot's (``DiscordConfig``)."""
    return read_config(Config, check_keys=False)

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
absence_misses         2                                     phases missed in a row before the absence policy acts (0: never)
absence_action         replace                               replace (by a standby, else remove), remove or notify
offer_seconds          600                                   how long a standby has to accept a seat
=====================  ====================================  ===========================
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal, TypeVar

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
    language: Literal["en-US", "zh-CN"] = "en-US"
    day_seconds: int = Field(default=86400, ge=60)
    dusk_seconds: int = Field(default=86400, ge=60)
    morning_seconds: int = Field(default=43200, ge=60)
    reminder_lead_seconds: int = Field(default=3600, ge=0)
    absence_misses: int = Field(default=2, ge=0, le=10)
    absence_action: Literal["replace", "remove", "notify"] = "replace"
    offer_seconds: int = Field(default=600, ge=60, le=86400)

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


def read_config(cls: type[C], *, check_keys: bool = True, **overrides: object) -> C:
    """``cls`` as the file and the environment give it now, or ConfigError: a file named
    by ``WOLFHOWL_CONFIG`` that does not exist (``./config.toml`` may be missing), one that
    cannot be read or is not TOML, a value that does not fit its setting, and (with
    ``check_keys``) a key ``cls`` does not have: a misspelt ``database_url`` must not
    leave the bot on the default database."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    path = config_path()
    if "WOLFHOWL_CONFIG" in os.environ and not path.exists():
        raise ConfigError(f"the configuration file {str(path)!r} (WOLFHOWL_CONFIG) does not exist")
    if path.exists():
        try:
            keys = set(tomllib.loads(path.read_text(encoding="utf-8")))
            unknown = sorted(keys - set(cls.model_fields)) if check_keys else []
        except IsADirectoryError:
            raise ConfigError(f"the configuration file {str(path)!r} is a folder") from None
        except OSError as exc:
            raise ConfigError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{str(path)!r} is not UTF-8 text") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{str(path)!r} is not valid TOML: {exc}") from None
        if unknown:
            raise ConfigError(f"{str(path)!r} has settings that do not exist: {', '.join(unknown)} (see config.example.toml)")
    try:
        return cls(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '?'}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"invalid settings: {problems}") from None
    except SettingsError as exc:
        raise ConfigError(f"invalid settings: {exc}") from None


def load_config() -> Config:
    """The configuration as files and environment give it now (see ``read_config``). The
    file also holds the bot's own settings, which are not Config's: ``wolfhowl run`` and
    ``wolfhowl db`` check the keys against the bot's (``DiscordConfig``)."""
    return read_config(Config, check_keys=False)

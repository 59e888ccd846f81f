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
from pathlib import Path
from typing import Literal

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


def load_config() -> Config:
    """The configuration as files and environment give it now."""
    return Config()

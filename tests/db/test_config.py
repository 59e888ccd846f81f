"""The configuration: defaults, config.toml, WOLFHOWL_* environment overriding it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_URL, ConfigError, load_config
from bot.core.types import GameSettings


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    monkeypatch.delenv("WOLFHOWL_DATABASE_URL", raising=False)
    cfg = load_config()
    assert cfg.database_url == DEFAULT_DATABASE_URL and cfg.language == "en-US"


def test_toml_then_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bot.toml"
    path.write_text('database_url = "sqlite:///from-file.db"\nlanguage = "zh-CN"\nday_seconds = 600\ntoken = "secret"\n')
    monkeypatch.setenv("WOLFHOWL_CONFIG", str(path))
    monkeypatch.setenv("WOLFHOWL_DATABASE_URL", "postgresql://env/db")
    cfg = load_config()
    assert cfg.database_url == "postgresql://env/db"
    assert cfg.language == "zh-CN" and cfg.day_seconds == 600
    assert "secret" not in repr(cfg)
    settings = GameSettings.from_config(cfg, max_players=8)
    assert (settings.day_seconds, settings.language, settings.max_players) == (600, "zh-CN", 8)


def test_bad_values_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WOLFHOWL_DAY_SECONDS", "5")
    with pytest.raises(ConfigError, match=r"WOLFHOWL_DAY_SECONDS='5': Input should be greater than or equal to 60$"):
        load_config()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('token = "abc', "is not valid TOML"),
        (b"language = '\xff'", "is not UTF-8 text"),
        ('databse_url = "postgresql://db/x"', "settings that do not exist: databse_url"),
        ('language = "fr"', "key language: Input should be 'en-US', 'zh-CN' or 'zh-TW' \\(expected one of en-US, zh-CN, zh-TW\\)"),
    ],
)
def test_a_bad_config_file_is_refused_naming_the_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | bytes, message: str) -> None:
    from bot.discord.config import load_discord_config

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    path = tmp_path / "config.toml"
    path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    with pytest.raises(ConfigError, match=message):
        load_discord_config()


def test_a_config_file_named_must_exist_and_be_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WOLFHOWL_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match=r"missing\.toml.*does not exist"):
        load_config()
    (tmp_path / "folder.toml").mkdir()  # what docker -v makes of a host file that is not there
    monkeypatch.setenv("WOLFHOWL_CONFIG", str(tmp_path / "folder.toml"))
    with pytest.raises(ConfigError, match="is a folder"):
        load_config()
    monkeypatch.delenv("WOLFHOWL_CONFIG")
    assert load_config().language == "en-US"  # ./config.toml may be missing


def test_db_cli_refuses_a_misspelt_key_but_reads_the_bots_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`wolfhowl db upgrade` with `databse_url` in the file must not migrate the default
    database instead; the bot's own keys (moderator_role, …) are fine in that file."""
    from argparse import Namespace

    from bot.cli import db as db_cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WOLFHOWL_CONFIG", raising=False)
    monkeypatch.delenv("WOLFHOWL_DATABASE_URL", raising=False)
    (tmp_path / "config.toml").write_text(f'databse_url = "sqlite:///{tmp_path}/other.db"\n')
    assert db_cli.run(Namespace(action="upgrade", revision=None, url=None, config=None)) == 2
    assert "settings that do not exist: databse_url" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [tmp_path / "config.toml"]  # nothing created
    (tmp_path / "config.toml").write_text(f'database_url = "sqlite:///{tmp_path}/ok.db"\nmoderator_role = "DM"\n')
    assert db_cli.run(Namespace(action="upgrade", revision=None, url=None, config=None)) == 0
    assert (tmp_path / "ok.db").exists()

"""A configuration error names what to fix: the variable, or the file and key, and the
form expected; a WOLFHOWL_* variable that is no setting is refused like an unknown key;
`--config FILE` errors name the option."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli.run import add_arguments, run
from bot.config import ConfigError
from bot.discord.config import load_discord_config


@pytest.fixture(autouse=True)
def clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("WOLFHOWL_CONFIG", "WOLFHOWL_DATABASE_URL"):
        monkeypatch.setenv(name, "")  # recorded, so that what --config sets is undone
        monkeypatch.delenv(name)


@pytest.mark.parametrize("value", ["123", "abc", "[abc]"])
def test_a_list_variable_without_brackets_says_it_wants_a_list(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("WOLFHOWL_COMMAND_GUILD_IDS", value)
    with pytest.raises(ConfigError) as err:
        load_discord_config()
    assert f"WOLFHOWL_COMMAND_GUILD_IDS={value!r}" in str(err.value)
    assert "a list such as [123]" in str(err.value)


def test_a_bad_value_in_the_file_names_the_file_and_key_and_the_form(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('day_seconds = "a day"\nquiet_dead = "sometimes"\n')
    with pytest.raises(ConfigError) as err:
        load_discord_config()
    text = str(err.value)
    assert "'config.toml', key day_seconds" in text and "expected a whole number" in text
    assert "'config.toml', key quiet_dead" in text and "expected true or false" in text


def test_a_bad_variable_is_named_with_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOLFHOWL_LANGUAGE", "fr")
    with pytest.raises(ConfigError, match=r"WOLFHOWL_LANGUAGE='fr': .*expected one of en-US, zh-CN, zh-TW\)$"):
        load_discord_config()


def test_an_unknown_wolfhowl_variable_is_refused_like_an_unknown_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOLFHOWL_DATABSE_URL", "postgresql://db/x")
    with pytest.raises(ConfigError, match="environment variables that are no setting: WOLFHOWL_DATABSE_URL"):
        load_discord_config()
    monkeypatch.delenv("WOLFHOWL_DATABSE_URL")
    monkeypatch.setenv("WOLFHOWL_TEST_PG_URL", "postgresql://x/y")  # the test suite's own
    assert load_discord_config().database_url.startswith("sqlite")


def test_config_option_errors_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--config", str(tmp_path / "missing.toml")])) == 2
    err = capsys.readouterr().err
    assert "missing.toml' (--config) does not exist" in err and "WOLFHOWL_CONFIG" not in err
    (tmp_path / "bad.toml").write_text("day_seconds = 5\n")
    assert run(parser.parse_args(["--config", str(tmp_path / "bad.toml")])) == 2
    err = capsys.readouterr().err
    assert "bad.toml' (--config), key day_seconds: Input should be greater than or equal to 60" in err

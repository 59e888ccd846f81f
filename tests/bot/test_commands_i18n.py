"""Every command, option and choice is translated in both languages, within Discord's
rules; every message key the Discord layer uses exists in both catalogues."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.translator import CatalogueTranslator
from bot.i18n import LOCALES
from bot.i18n.catalog import catalogue
from tests.architecture.house import service_files, ui_files
from tests.commands_shown import payload_size, payloads, shown_commands, tree, walk

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)
LOCALE = {"en-US": discord.Locale.american_english, "zh-CN": discord.Locale.chinese, "zh-TW": discord.Locale.taiwan_chinese}


def strings() -> list[tuple[str, str, dict[str, Any]]]:
    """Every name, description and choice of the registered payload: (what, command, node)."""
    out = []
    for c, payload in payloads():
        out += [("name", c.qualified_name, payload), ("description", c.qualified_name, payload)]
        if isinstance(c, app_commands.Command):
            for option in payload.get("options", []):
                out += [("name", c.qualified_name, option), ("description", c.qualified_name, option)]
                out += [("choice", c.qualified_name, ch) for ch in option.get("choices", [])]
    return out


def test_the_scan_sees_the_whole_tree():
    names = {c.qualified_name for c in walk(tree().get_commands())}
    expected = {
        "mod create", "mod start", "mod settings", "phase pause", "phase resume", "mod replace", "mod kick",
        "mod end", "mod status", "mod log", "game join", "game leave", "phase advance", "phase extend",
        "grail", "identify", "act attack", "act skill", "orders", "vote", "me", "inbox", "rules", "help",
    }  # fmt: skip
    assert expected <= names


def test_every_string_of_the_tree_is_translated_from_the_catalogue():
    """Each name, description and choice carries its words in each of our languages (a
    plain string, not made by ``L``, would carry none): the catalogue's, for each locale."""
    for what, command, node in strings():
        field = "name" if what == "choice" else what
        given = node.get(f"{field}_localizations") or {}
        for loc in LOCALES:
            assert given.get(loc), f"{command}: {what} {node.get(field)!r} has no {loc} words"
    vote = next(p for c, p in payloads() if c.qualified_name == "vote")
    assert vote["name"] == catalogue("en-US")["cmd.name.vote"] and vote["name_localizations"]["zh-CN"] == catalogue("zh-CN")["cmd.name.vote"]


@pytest.mark.parametrize("loc", LOCALES)
async def test_translations_follow_discords_rules(loc):
    translator = CatalogueTranslator()
    t = tree()
    for c in walk(t.get_commands()):
        payload = (await c.get_translated_payload(t, translator)) if hasattr(c, "get_translated_payload") else None
        assert payload is not None
        name = payload["name_localizations"].get(loc, payload["name"]) if payload.get("name_localizations") else payload["name"]
        assert NAME.match(name) and name == name.lower(), name
        desc = payload["description_localizations"].get(loc) if payload.get("description_localizations") else payload["description"]
        assert desc and 1 <= len(desc) <= 100, (c.qualified_name, desc)
        if isinstance(c, app_commands.Command):
            seen = set()
            for option in payload.get("options", []):
                oname = option["name_localizations"][loc]
                assert NAME.match(oname) and oname == oname.lower(), oname
                assert oname not in seen, f"{c.qualified_name}: option name {oname} twice in {loc}"
                seen.add(oname)
                assert 1 <= len(option["description_localizations"][loc]) <= 100, option
                for ch in option.get("choices", []):
                    assert 1 <= len(ch["name_localizations"].get(loc, ch["name"])) <= 100


@pytest.mark.parametrize("loc", LOCALES)
def test_each_top_level_command_fits_discords_size_limit(loc):
    """Discord refuses a command whose names, descriptions and choices exceed 4000
    characters (counted per locale)."""
    for c, payload in payloads():
        if c.parent is None:
            assert payload_size(payload, loc) <= 4000, (c.name, payload_size(payload, loc))


def test_translator_answers_only_our_languages():
    import asyncio

    s = app_commands.locale_str("vote", key="cmd.name.vote")
    tr = CatalogueTranslator()
    assert asyncio.run(tr.translate(s, discord.Locale.chinese, None)) == "投票"
    assert asyncio.run(tr.translate(s, discord.Locale.taiwan_chinese, None)) == "投票"
    assert asyncio.run(tr.translate(s, discord.Locale.british_english, None)) == "vote"
    assert asyncio.run(tr.translate(s, discord.Locale.french, None)) is None
    assert asyncio.run(tr.translate(app_commands.locale_str("x"), discord.Locale.chinese, None)) is None


def literal_keys(pattern: str, side: str = "ui") -> set[str]:
    """The keys ``pattern`` finds in the code of one side of the house (``ui``: the Discord
    layer and the features' cogs, components and looks; ``service``: the rest)."""
    found: set[str] = set()
    for path in ui_files() if side == "ui" else service_files():
        found |= set(re.findall(pattern, path.read_text(encoding="utf-8")))
    return found


def test_every_error_and_command_key_of_the_discord_layer_exists():
    used = literal_keys(r"ReplyError\(\s*\"([a-z_.]+)\"") | literal_keys(r"\bL\(\s*\"([a-z_.0-9]+)\"") | literal_keys(r"\bt\(\s*\"([a-z_]+\.[A-Za-z_.]+)\"")
    used |= literal_keys(r"ResolveError\(\s*\"([a-z_.]+)\"", "service")  # a name the service could not resolve
    assert {"reply.error.player_unknown", "cmd.name.player", "reply.joined"} <= used  # the scan works
    for loc in LOCALES:
        assert sorted(k for k in used if k not in catalogue(loc)) == [], loc


def test_service_errors_read_the_same_in_our_words():
    """Every refusal of the service has its [svc] text in each language, taking the same
    parameters in each: the error classes' keys and the keys raised by name."""
    import string

    from bot.core import access_errors, errors
    from bot.features.standbys import errors as standby_errors
    from bot.features.stats import errors as stats_errors
    from engine import errors as rules

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    classes = [c for m in (errors, access_errors, standby_errors, stats_errors) for c in vars(m).values() if isinstance(c, type) and issubclass(c, errors.ServiceError)]
    engine_keys = {c.key for c in vars(rules).values() if isinstance(c, type) and issubclass(c, rules.RuleViolation)}
    raised = literal_keys(r"\"(error\.[a-z_]+)\"", "service") - engine_keys  # and the keys named in the code
    assert {"error.offer_already_open", "error.newcomer_cannot_see"} <= raised and len(classes) > 30  # the scans work
    worded = {c.key for c in classes if issubclass(c, errors.WordedError) and c.key != errors.FALLBACK}  # the key is the catalogue's own
    assert "reply.error.not_moderator" in worded  # the scan works
    for key in raised | {c.key for c in classes if c is not errors.RuleRefusedError}:
        ours = key if key in worded else errors.catalogue_key(key)
        assert all(ours in catalogue(loc) for loc in LOCALES), key
        assert len({frozenset(fields(catalogue(loc)[ours])) for loc in LOCALES}) == 1, key
    known = {"error.no_active_game", "error.phase_closed", "error.not_in_game", "error.lobby_full", "error.concurrent_change"}
    assert all("svc." + k.removeprefix("error.") in catalogue(loc) for k in known for loc in LOCALES)


def test_keys_built_at_run_time_exist():
    from bot.features.help.cog import TOPICS

    for loc in LOCALES:
        cat = catalogue(loc)
        for topic in TOPICS:
            assert f"rules.{topic}" in cat and f"rules.{topic}_title" in cat
        for kind in ("grail", "identify", "orders", "vote"):
            assert f"reply.kind.{kind}" in cat
        for status in ("lobby", "running", "paused", "over", "cancelled"):
            assert f"reply.status.{status}" in cat
        for perm in ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history", "manage_channels", "manage_roles"):
            assert f"ui.perm.{perm}" in cat
        for what in ("trait", "class", "faction"):
            assert f"reply.what.{what}" in cat
        for k in ("orders", "identify"):
            assert f"ui.clear_{k}" in cat


def shown_names(loc: str) -> dict[str, tuple[dict[str, set[str]], dict[str, set[str]]]]:
    """Each command as a client in ``loc`` shows it ("act skill", "行动 技能") -> its options'
    names, and for each option with choices the choices' names."""
    return {path: ({name: set(choices) for name, (_, choices) in c.options.items()}, {}) for path, c in shown_commands(loc).items()}


def test_every_command_a_text_names_is_one_a_client_shows():
    """`/command sub option: choice` in any text names a real command, its real options and
    choices, all in one language as a client in that language shows them."""
    refs = set()
    for loc in LOCALES:
        for text in catalogue(loc).values():
            refs |= set(re.findall(r"`(/[^`]+)`", text))
    assert "/orders clear: my night orders" in refs and "/行动 技能 技能: 松开" in refs  # the scan works

    def valid(ref: str, loc: str) -> bool:
        commands = shown_names(loc)
        head, *opts = re.split(r"\s+(?=[^\s:<]+:)", ref[1:])
        path = re.sub(r"\s+<[^>]*>$", "", head)  # "/rules <topic or class>"
        if path not in commands:
            return False
        options = commands[path][0]
        for opt in opts:
            option, _, value = (x.strip() for x in opt.partition(":"))
            if option not in options:
                return False
            if options[option] and value and value not in options[option]:
                return False
        return True

    bad = sorted(r for r in refs if not any(valid(r, loc) for loc in LOCALES))
    assert bad == []

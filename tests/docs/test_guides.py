"""The players' and moderators' guides (docs/playing*.md, docs/moderating*.md) stay true of
the bot where a machine can tell: every command, option and choice they show exists as a
client in the guide's language shows it (the Chinese guides may give the English beside,
`/圣杯 数字: 42`（`/grail number: 42`）, which must be the same command); each guide names
every command of its readers; the settings table lists every option of /mod settings with
its real default, whether /mod create offers it too and whether it may change after the
start; every quoted bot message is
one the bot says in that language; the English and Chinese guides have the same sections,
naming the same commands; and the links lead somewhere."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from discord import AppCommandOptionType, app_commands

from bot.config import Config
from bot.core.types import HOUSE_RULES, RULE_SETTINGS, GameSettings
from bot.discord.config import DiscordConfig
from bot.features.help.cog import HELP_SECTIONS, TOPICS
from bot.features.moderation.cog_settings import overrides
from bot.i18n import t, terms
from bot.i18n.catalog import catalogue
from bot.render.durations import format_duration
from bot.sandbox.play_reader import template_regex
from engine.classes import catalogue as classes
from engine.classes import class_spec
from engine.values import FACTIONS, Trait
from tests.commands_shown import shown_commands, tree, walk

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ("playing", "moderating")
LANGUAGES = {"en-US": "", "zh-CN": ".zh"}
DOCS = [(guide, loc) for guide in GUIDES for loc in LANGUAGES]
# The five-minute first game (docs/first-game*.md): its commands, options, settings and
# links are held like the guides'.
FIRST = [("first-game", loc) for loc in LANGUAGES]
# Which commands each guide is for: the players' and the moderators' lists of /help.
READERS = {"playing": "help.players", "moderating": "help.moderators"}
# The settings table's last column: fixed once the classes are dealt, or may change.
AFTER_START = {"en-US": {"fixed": True, "changes": False}, "zh-CN": {"固定": True, "可改": False}}
# Options of /mod settings that are neither a game setting nor a configured default: the
# lobby's start time (none unless given; "—" after the start: it is for the lobby only).
LOBBY_ONLY = {"start_in": {"en-US": "none", "zh-CN": "无"}}


def doc_path(guide: str, loc: str) -> Path:
    return ROOT / "docs" / f"{guide}{LANGUAGES[loc]}.md"


def text_of(guide: str, loc: str) -> str:
    return doc_path(guide, loc).read_text(encoding="utf-8")


# -- the command tree as clients show it: tests/commands_shown.py ---------------------
@cache
def named_values(param: str, loc: str) -> dict[str, str] | None:
    """For the options whose values are names (a skill, a guess, a rules topic): each name
    in ``loc`` -> what it names. None: any value will do (a player, a number...)."""
    if param == "skill":
        out = {s.name[loc]: s.id for c in classes() for s in class_spec(c).skills}  # type: ignore[index]
        return out | {t("skill.release", loc): "release"}
    if param == "guess":
        out = {terms.guess_value("trait", x.value, loc): f"trait:{x.value}" for x in Trait}
        out |= {terms.guess_value("faction", f.value, loc): f"faction:{f.value}" for f in FACTIONS}
        return out | {terms.guess_value("class", c, loc): f"class:{c}" for c in classes()}
    if param == "topic":
        return {t(f"rules.{x}_title", loc): x for x in TOPICS} | {terms.class_name(c, loc): c for c in classes()}
    return None


@dataclass(frozen=True)
class Ref:
    """A command as written, in the tree's own terms: comparable across languages."""

    command: str
    options: tuple[tuple[str, str], ...]


def resolve(written: str, loc: str) -> Ref | None:
    """``/command sub option: value ...`` as a client in ``loc`` shows it, or None when no
    such command, option, choice or named value exists there."""
    head, *opts = re.split(r"\s+(?=[^\s:<]+:)", written.strip().removeprefix("/"))
    shown = shown_commands(loc).get(head.strip())
    if shown is None:
        return None
    options = []
    for opt in opts:
        option, _, value = (x.strip() for x in opt.partition(":"))
        if option not in shown.options:
            return None
        param, choices = shown.options[option]
        names = choices or named_values(param, loc)
        if names is not None:
            if value not in names:
                return None
            value = names[value]
        options.append((param, value))
    return Ref(shown.qualified, tuple(options))


# -- reading a guide ------------------------------------------------------------------
INLINE_COMMAND = re.compile(r"`(/[^`]+)`(?:（`(/[^`]+)`）)?")
INLINE_OPTION = re.compile(r"`([^`/\s][^`\s]*):`(?:（`([^`\s]+):`）)?")
CODE_LINE = re.compile(r"(/.+?)(?:\s*（(/.+)）)?")


@dataclass
class Section:
    heading: str
    level: int
    commands: list[tuple[str, str | None]]  # as written, and the English beside it
    options: list[tuple[str, str | None]]
    quotes: list[str]


def sections(text: str) -> list[Section]:
    """The guide cut at its headings (the title's section first), with what each shows."""
    out = [Section("", 1, [], [], [])]
    fence = None
    for line in text.splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        here = out[-1]
        if fence is not None:
            m = CODE_LINE.fullmatch(line.strip())
            if fence == "" and m:
                here.commands.append((m.group(1).strip(), m.group(2)))
            continue
        if line.startswith("#"):
            hashes = len(line) - len(line.lstrip("#"))
            out.append(Section(line[hashes:].strip(), hashes, [], [], []))
            continue
        if line.startswith("> "):  # the bot's words (checked against its catalogues)
            here.quotes.append(line[2:].strip())
            continue
        here.commands += [(m.group(1), m.group(2)) for m in INLINE_COMMAND.finditer(line)]
        here.options += [(m.group(1), m.group(2)) for m in INLINE_OPTION.finditer(line)]
    return out


def option_params(loc: str) -> dict[str, set[str]]:
    """Every option's shown name in ``loc`` -> the parameters it names."""
    out: dict[str, set[str]] = {}
    for shown in shown_commands(loc).values():
        for option, (param, _) in shown.options.items():
            out.setdefault(option, set()).add(param)
    return out


def named(section: Section, loc: str) -> set[object]:
    """What a section shows, in the tree's terms (unresolvable items left out: the tests
    of each kind report those)."""
    refs: set[object] = {resolve(written, loc) for written, _ in section.commands}
    refs |= {("option", p) for option, _ in section.options for p in option_params(loc).get(option, ())}
    return refs - {None}


# -- the tests ------------------------------------------------------------------------
@pytest.mark.parametrize(("guide", "loc"), DOCS + FIRST)
def test_every_command_shown_exists_in_the_guides_language(guide: str, loc: str) -> None:
    seen, bad = 0, []
    for section in sections(text_of(guide, loc)):
        for written, beside in section.commands:
            seen += 1
            ref = resolve(written, loc)
            if ref is None:
                bad.append(written)
            elif beside is not None and (loc == "en-US" or resolve(beside, "en-US") != ref):
                bad.append(f"{written} （{beside}）")
    assert seen >= 10, "the scan found the commands"
    assert bad == [], f"{doc_path(guide, loc).name}: not as a {loc} client shows it: {bad}"


@pytest.mark.parametrize(("guide", "loc"), DOCS + FIRST)
def test_every_option_named_alone_exists_in_the_guides_language(guide: str, loc: str) -> None:
    names = option_params(loc)
    bad = []
    for section in sections(text_of(guide, loc)):
        for option, beside in section.options:
            if option not in names:
                bad.append(option)
            elif beside is not None and (loc == "en-US" or option_params("en-US").get(beside) != names[option]):
                bad.append(f"{option} （{beside}）")
    assert bad == [], f"{doc_path(guide, loc).name}: no such option for a {loc} client: {bad}"


@pytest.mark.parametrize(("guide", "loc"), DOCS)
def test_each_guide_names_every_command_of_its_readers(guide: str, loc: str) -> None:
    wanted = next(commands for key, commands in HELP_SECTIONS if key == READERS[guide])
    shown = {ref.command for s in sections(text_of(guide, loc)) for ref in named(s, loc) if isinstance(ref, Ref)}
    assert sorted(set(wanted) - shown) == []


def test_the_two_languages_have_the_same_sections_naming_the_same_things() -> None:
    for guide in GUIDES:
        en, zh = (sections(text_of(guide, loc)) for loc in LANGUAGES)
        assert [s.level for s in en] == [s.level for s in zh], guide
        for a, b in zip(en, zh, strict=True):
            assert named(a, "en-US") == named(b, "zh-CN"), (guide, a.heading, b.heading)
            assert len(a.quotes) == len(b.quotes), (guide, a.heading, b.heading)


def _field_of(param: app_commands.Parameter) -> str | None:
    """The GameSettings field a /mod settings option sets (None: not a game setting)."""
    sample: object
    if param.choices:
        sample = app_commands.Choice(name="x", value=param.choices[0].value)
    elif param.type is AppCommandOptionType.string:
        sample = "1h" if param.name != "deadline_hours" else "18"  # a length, or hours of the day
    elif param.type is AppCommandOptionType.integer:
        sample = param.min_value
    else:
        sample = True
    fields = list(overrides(**{param.name: sample}))
    assert len(fields) <= 1, fields
    return fields[0] if fields else None


def _default_text(field: str | None, param: str, loc: str) -> str:
    if field is None:
        value: object = DiscordConfig.model_fields[param].default
    elif field in Config.model_fields:  # a new game takes the configuration's (GameSettings.from_config)
        value = Config.model_fields[field].default
    else:
        value = GameSettings.model_fields[field].default
    if isinstance(value, bool):
        return str(value)
    if field and field.endswith("_seconds"):
        return format_duration(int(value), loc)  # type: ignore[call-overload]
    if field == "vote_tie_rule":
        return t(f"cmd.choice.tie_{value}", loc)
    if field == "language":
        return t(f"cmd.choice.lang_{str(value).replace('-', '_')}", loc)
    if field in HOUSE_RULES:
        return t(f"cmd.choice.{field}_{value}", loc)
    if field == "absence_action":
        return t(f"cmd.choice.absence_{value}", loc)
    if field == "gallery":
        return t(f"cmd.choice.gallery_{value}", loc)
    if field == "deadline_hours":  # none: the phases' lengths
        return {"en-US": "none", "zh-CN": "无"}[loc]
    return str(value)


def test_the_guides_defaults_are_the_configurations() -> None:
    """The table shows the bot's own defaults; the configuration's are the same."""
    for key in ("day_seconds", "dusk_seconds", "morning_seconds", "reminder_lead_seconds", "language"):
        assert Config.model_fields[key].default == GameSettings.model_fields[key].default, key


@pytest.mark.parametrize("loc", LANGUAGES)
def test_the_settings_table_lists_every_option_of_mod_settings_truly(loc: str) -> None:
    """The table lists each option of ``/mod settings`` and of ``/mod house_rules`` once,
    marking those ``/mod create`` offers too."""
    subs = ("settings", "house_rules")
    commands = {c.qualified_name: c for c in walk(tree().get_commands()) if c.qualified_name in ("mod create", *(f"mod {x}" for x in subs))}
    params = {p.name: p for name, c in commands.items() if name != "mod create" for p in c.parameters}  # type: ignore[union-attr]
    on_create = {p.name for p in commands["mod create"].parameters}  # type: ignore[union-attr]
    assert on_create and on_create < set(params)
    options = {
        name: found
        for sub in subs
        for name, found in shown_commands(loc)[" ".join(t(f"cmd.name.{x}", loc) for x in ("mod", sub))].options.items()
    }
    rows = {}
    for line in text_of("moderating", loc).splitlines():
        m = re.match(r"\|\s*`([^`\s]+):`", line)
        if m:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert m.group(1) in options, line
            rows[options[m.group(1)][0]] = cells
    assert sorted(rows) == sorted(params), "the table lists each option of /mod settings once"
    for param, cells in rows.items():
        assert (cells[2] == "✓") is (param in on_create), (param, "on /mod create", cells[2])
        if param in LOBBY_ONLY:
            assert (cells[1], cells[-1]) == (LOBBY_ONLY[param][loc], "—"), (param, cells)
            continue
        field = _field_of(params[param])
        assert field is None or field in GameSettings.model_fields, field
        assert cells[1] == _default_text(field, param, loc), (param, cells[1])
        assert AFTER_START[loc].get(cells[-1]) is (field in RULE_SETTINGS), (param, cells[-1])


def _templates(loc: str) -> list[tuple[re.Pattern[str], int]]:
    texts = set(catalogue(loc).values())
    return [(template_regex(x), len(re.sub(r"\{\w+\}|\s", "", x))) for x in texts]


@pytest.mark.parametrize(("guide", "loc"), DOCS)
def test_every_quoted_message_is_one_the_bot_says(guide: str, loc: str) -> None:
    """A quote is a whole message of the bot's, in the guide's language (a refusal with its
    ⚠️), its parameters filled in (a message of a few words besides its parameters, such
    as "{name} is {value}", would match anything: those are not quoted)."""
    templates = _templates(loc)
    quotes = [q for s in sections(text_of(guide, loc)) for q in s.quotes]
    assert len(quotes) >= 5
    bad = []
    for quote in quotes:
        text = quote.removeprefix("⚠️").strip()
        if not any(literal >= 5 and p.fullmatch(text) for p, literal in templates):
            bad.append(quote)
    assert bad == [], f"{doc_path(guide, loc).name}: the bot never says: {bad}"


@pytest.mark.parametrize(("guide", "loc"), DOCS + FIRST)
def test_every_setting_named_exists(guide: str, loc: str) -> None:
    """A configuration key or a setting named in a guide (`reminder_lead_seconds`) is one."""
    known = set(DiscordConfig.model_fields) | set(GameSettings.model_fields)
    names = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", text_of(guide, loc)))
    assert sorted(names - known) == []


@pytest.mark.parametrize(("guide", "loc"), DOCS)
def test_the_links_lead_to_the_twin_the_other_guide_and_existing_files(guide: str, loc: str) -> None:
    links = set(re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text_of(guide, loc)))
    assert all((ROOT / "docs" / link).exists() for link in links), links
    other = next(g for g in GUIDES if g != guide)
    twin = next(x for x in LANGUAGES if x != loc)
    assert {doc_path(guide, twin).name, doc_path(other, loc).name} <= links


@pytest.mark.parametrize("loc", LANGUAGES)
def test_the_first_game_links_its_twin_the_guide_and_existing_files(loc: str) -> None:
    links = set(re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text_of("first-game", loc)))
    assert all((ROOT / "docs" / link).exists() for link in links), links
    twin = next(x for x in LANGUAGES if x != loc)
    assert {doc_path("first-game", twin).name, doc_path("playing", loc).name} <= links


def test_the_readme_links_every_guide_from_its_playing_section() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    playing = readme.split("## Playing", 1)[1].split("\n## ", 1)[0]
    for guide, loc in DOCS + FIRST:
        assert f"(docs/{doc_path(guide, loc).name})" in playing, doc_path(guide, loc).name

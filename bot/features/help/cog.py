"""``/rules [topic or class]`` and ``/help``: the game explained in the reader's language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import engine.rules
from bot.core.errors import ServiceError
from bot.core.types import GameInfo
from bot.discord.context import Ctx, locale_of
from bot.discord.errors import ReplyError
from bot.discord.groups import top_level
from bot.discord.translator import L
from bot.features.moderation.look_settings import house_rule_lines
from bot.i18n import LOCALES, normalize_locale, t, terms
from bot.render import words
from bot.render.fields import add_lines
from bot.render.palette import FACTION_COLOUR
from bot.render.sheet import identify_slot, skill_heading
from engine.classes import FACTION_ROWS, catalogue, catalogue_of

TOPICS = ("overview", "phases", "actions", "combat", "identify", "states", "scoring", "house", "commands", "glossary")
RULES_COLOUR = 0x92400E
LIVE = ("running", "paused")


def _fold(text: str) -> str:
    return text.casefold().strip()


def topic_choices(current: str, locale: str) -> list[app_commands.Choice[str]]:
    want = _fold(current or "")
    out = []
    for topic in TOPICS:
        label = t(f"rules.{topic}_title", locale)
        if not want or want in _fold(label) or want in topic:
            out.append(app_commands.Choice(name=label[:100], value=topic))
    for class_id in sorted(catalogue()):
        label = t("rules.class_label", locale, name=terms.class_name(class_id, locale))
        if not want or want in _fold(label) or want in class_id:
            out.append(app_commands.Choice(name=label[:100], value=class_id))
    return out[:25]


def parse_topic(text: str | None) -> str:
    raw = _fold(text or "overview")
    if raw in TOPICS or raw in catalogue():
        return raw
    for topic in TOPICS:
        if any(raw == _fold(t(f"rules.{topic}_title", loc)) for loc in LOCALES):
            return topic
    for class_id in catalogue():
        if any(raw == _fold(terms.class_name(class_id, loc)) for loc in LOCALES):
            return class_id
    raise ReplyError("reply.error.topic_unknown", topic=(text or "")[:50])


def topic_embed(topic: str, locale: str) -> discord.Embed:
    if topic in catalogue():
        return class_embed(topic, locale)
    embed = discord.Embed(title=t(f"rules.{topic}_title", locale), description=t(f"rules.{topic}", locale)[:4096], colour=RULES_COLOUR)
    embed.set_footer(text=f'{t("rules.more", locale)}\n{version_line(locale)}')
    return embed


def version_line(locale: str) -> str:
    """The rules version these texts and numbers are (new games are dealt under it)."""
    return t("rules.version", locale, version=engine.rules.CURRENT)


def class_embed(class_id: str, locale: str, game: GameInfo | None = None) -> discord.Embed:
    """A class as its data file gives it: numbers, traits, identification and skills; as
    ``game``'s rules version has them when given (a game keeps the numbers it was dealt
    under), else the newest."""
    loc = normalize_locale(locale)
    spec = catalogue_of(game.rules_version if game is not None else engine.rules.CURRENT)[class_id]
    factions = [f.value for f, row in FACTION_ROWS.items() if class_id in row]
    colour = FACTION_COLOUR[factions[0]] if len(factions) == 1 else RULES_COLOUR
    embed = discord.Embed(title=terms.class_name(class_id, loc), description=spec.blurb[loc], colour=colour)  # type: ignore[index]
    stats = t(
        "sheet.stats", loc, hp=spec.hp, max_hp=spec.hp, ab=spec.ab, armor=spec.armor, dex=spec.dex, damage=spec.damage
    )
    saves = t("sheet.saves", loc, will=spec.will, reflex=spec.reflex, fortitude=spec.fortitude)
    embed.add_field(name=t("sheet.traits", loc, traits=words.listing((terms.trait(x.value, loc) for x in spec.traits), loc)), value=f"{stats}\n{saves}", inline=False)
    embed.add_field(name=t("rules.factions", loc), value=words.listing((terms.faction(f, loc) for f in factions), loc) or "—", inline=False)
    ident = [identify_slot(slot.count, slot.what, slot.values, loc) for slot in spec.identify]
    embed.add_field(name=t("sheet.identify", loc), value="\n".join(ident), inline=False)
    for s in spec.skills:
        embed.add_field(name=skill_heading(s.name[loc], s.kinds, s.cost, loc), value=s.text[loc][:1024], inline=False)  # type: ignore[index]
    if game is None:
        embed.set_footer(text=version_line(loc))
    else:
        embed.set_footer(text=t("rules.class_game_version", loc, game=game.id, version=game.rules_version))
    return embed


HELP_SECTIONS = (
    ("help.players", ("game join", "game leave", "game watch", "game unwatch", "standby join", "standby leave", "grail", "identify", "act attack", "act skill", "orders", "vote", "me", "inbox", "recap", "game history", "stats view", "leaderboard", "practice start", "practice stop", "settings prompts", "settings timezone", "rules", "help")),
    ("help.moderators", ("mod create", "mod start", "mod settings", "mod house_rules", "mod lineup", "phase advance", "phase extend", "phase pause", "phase resume", "mod replace", "mod kick", "mod end", "mod status", "mod log", "mod season start", "mod season end")),
)


def help_embed(locale: str) -> discord.Embed:
    description = t("help.new_here", locale) + "\n\n" + t("help.intro", locale)
    embed = discord.Embed(title=t("help.title", locale), description=description, colour=RULES_COLOUR)
    for section, paths in HELP_SECTIONS:
        lines = []
        for path in paths:
            lines.append(f"`/{_shown(path, locale)}` — {t('cmd.desc.' + '_'.join(path.split()), locale)}")
        add_lines(embed, t(section, locale), lines)  # whole lines, in as many fields as they need
    embed.set_footer(text=t("help.footer", locale))
    return embed


def _shown(path: str, locale: str) -> str:
    """A command as a client in ``locale`` names it: "act skill" -> "行动 技能"."""
    return " ".join(t(f"cmd.name.{p}", locale) for p in path.split())


async def _live_game(ctx: Ctx) -> GameInfo | None:
    """The caller's game (this channel's, or the one they play) while it is played: its
    rules version is the one whose numbers they play by."""
    try:
        info = await ctx.game()
    except (ReplyError, ServiceError):
        return None
    return info if info.status in LIVE else None


async def _with_house_rules(ctx: Ctx, embed: discord.Embed) -> None:
    """Where the caller has a game (this channel's, or the one they play), the overview
    and the house rules show that game's house rules."""
    try:
        info = await ctx.game()
    except (ReplyError, ServiceError):
        return
    lines = [*house_rule_lines(info.settings, ctx.locale), t("rules.game_version", ctx.locale, version=info.rules_version)]
    embed.add_field(name=t("rules.this_game", ctx.locale, game=info.id), value="\n".join(lines), inline=False)


class Info(commands.Cog):
    """The rules and the help: ``/rules``, ``/help``."""

    position = 100  # where a shared group lists its commands (bot.discord.features)

    @top_level("rules", anywhere=True)
    @app_commands.rename(topic=L("cmd.name.topic"))
    @app_commands.describe(topic=L("cmd.param.topic"))
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        chosen = parse_topic(topic)
        if chosen in catalogue():  # the numbers the caller plays by
            embed = class_embed(chosen, ctx.locale, await _live_game(ctx))
        else:
            embed = topic_embed(chosen, ctx.locale)
        if chosen in ("overview", "house"):
            await _with_house_rules(ctx, embed)
        await ctx.send(embed=embed)

    @rules.autocomplete("topic")
    async def _topics(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return topic_choices(current, locale_of(interaction))

    @top_level("help", anywhere=True)
    async def help_(self, interaction: discord.Interaction) -> None:
        ctx = await Ctx.begin(interaction, idempotent=True)
        await ctx.send(embed=help_embed(ctx.locale))

"""The gallery's truth posts in Discord's words: one step of the game log told as the
replay tells it (``replay_story``: the Day's numbers, the Night's turns in initiative
order with their rolls, the Morning's votes, every score change), line by line in
markdown rather than HTML; the start's step with the deal (each seat's class and
faction). Only the gallery is ever shown these (``bot.features.gallery.gallery``)."""

from __future__ import annotations

import re
from html import escape, unescape
from typing import Any

import discord

from bot.core.messages import GalleryTruth, PredictionScores, PredictionsOpened
from bot.core.outbox import OutgoingMessage
from bot.core.types import GameInfo
from bot.features.replay.look import step_label
from bot.features.replay.look_story import Line, Story
from bot.i18n import t, terms
from bot.render import words
from bot.render.outgoing import NEUTRAL, RENDERERS, Rendered
from bot.render.posts import PHASE_COLOUR
from bot.render.replies import names_of
from engine.events import Event

# What an embed's description holds, and what one Discord message's embeds hold in all
# (titles and footers count too: room is left for them).
EMBED_TEXT = 3900
MESSAGE_TEXT = 5400
_TAGS = re.compile(r"<[^>]*>")


def markdown(html_text: str) -> str:
    """A story line's HTML as Discord markdown: bold kept, every other tag dropped, the
    text unescaped (names arrive markdown-escaped, so they stay as typed)."""
    text = html_text.replace("<strong>", "**").replace("</strong>", "**").replace("<br>", "\n")
    return unescape(_TAGS.sub("", text))


def _lines(line: Line, depth: int = 0) -> list[str]:
    out = [("  " * depth) + ("• " if depth == 0 else "◦ ") + markdown(line.html)]
    for sub in line.subs:
        out += _lines(sub, depth + 1)
    return out


def deal_lines(deal: list[dict[str, Any]], names: dict[int, str], loc: str) -> list[str]:
    """The deal, one seat a line."""
    out: list[str] = []
    for d in sorted(deal, key=lambda d: int(d["seat"])):
        out.append(
            "• " + t(
                "gallery.deal_line", loc, seat=words.seat_label(int(d["seat"]), names),
                class_name=terms.class_name(str(d["class_id"]), loc), faction=terms.faction(str(d["faction"]), loc),
            )
        )  # fmt: skip
    return out


def truth_lines(events: list[Event], rolls: list[dict[str, Any]], names: dict[int, str], loc: str, deal: list[dict[str, Any]] | None = None) -> list[str]:
    """One step's truth, line by line (``names``: seat -> name as a message shows it)."""
    story = Story(loc, names, names, escape)
    out = deal_lines(deal, names, loc) if deal else []
    for line in story.step(events, rolls):
        out += _lines(line)
    return out or [t("gallery.nothing", loc)]


def title(step: str, round_no: int, phase: str, loc: str) -> str:
    return t("gallery.truth_title", loc, step=step_label({"kind": step, "round": round_no, "phase": phase}, loc))


def pages(lines: list[str], loc: str) -> list[str]:
    """The lines in descriptions that fit embeds of one message; what does not fit is
    said to be on the replay page."""
    out: list[str] = []
    current: list[str] = []
    size = total = 0
    more = t("gallery.more", loc)
    for line in lines:
        line = line[:EMBED_TEXT]
        if total + len(line) + 1 > MESSAGE_TEXT - len(more):
            current.append(more)
            break
        if current and size + len(line) + 1 > EMBED_TEXT:
            out.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
        total += len(line) + 1
    if current:
        out.append("\n".join(current))
    return out


def _gallery_truth(m: GalleryTruth, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The truth of one step, in the gallery and nowhere else: a row of this kind
    addressed anywhere but the gallery is a bug, refused rather than shown."""
    if msg.recipient_kind != "gallery":
        raise ValueError(f"outbox {msg.key}: the gallery's truth addressed to a {msg.recipient_kind}")
    names = names_of(info, loc) if info else {}
    lines = truth_lines(list(m.events), m.rolls, names, loc, m.deal)
    colour = PHASE_COLOUR.get(m.phase, NEUTRAL)
    embeds = [discord.Embed(description=text, colour=colour) for text in pages(lines, loc)]
    embeds[0].title = title(m.step, m.round, m.phase, loc)
    embeds[-1].set_footer(text=t("gallery.truth_late" if m.late else "gallery.truth_open", loc))
    return Rendered(embeds=embeds)


def _gallery_only(msg: OutgoingMessage) -> None:
    if msg.recipient_kind != "gallery":
        raise ValueError(f"outbox {msg.key}: a gallery post addressed to a {msg.recipient_kind}")


def _predictions_open(m: PredictionsOpened, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """The round's menu of predictions, in the gallery only: the first round's explains
    them whole, the later ones in a line (the gallery reads the first a few posts up)."""
    _gallery_only(msg)
    body = t("predictions.open_body" if m.round <= 1 else "predictions.open_again", loc)
    embed = discord.Embed(title=t("predictions.open_title", loc, round=m.round), description=body, colour=NEUTRAL)
    return Rendered(embeds=[embed])


def _prediction_scores(m: PredictionScores, msg: OutgoingMessage, info: GameInfo | None, loc: str) -> Rendered:
    """Each forecaster's Brier score at the end, in the gallery only (mentions in an
    embed name the person without pinging them)."""
    _gallery_only(msg)
    winners = ", ".join(t(f"faction.{w}", loc) for w in m.winners)
    lines = [t("predictions.scores_winners", loc, winners=winners)]
    for rank, row in enumerate(m.scores, 1):
        key = "predictions.score_row_one" if int(row["rounds"]) == 1 else "predictions.score_row"
        lines.append(t(key, loc, rank=rank, name=f"<@{int(row['user'])}>", brier=f"{float(row['brier']):.3f}", rounds=int(row["rounds"])))
    return Rendered(embeds=[discord.Embed(title=t("predictions.scores_title", loc), description="\n".join(lines)[:4000], colour=NEUTRAL)])


RENDERERS.add(GalleryTruth, _gallery_truth)
RENDERERS.add(PredictionsOpened, _predictions_open)
RENDERERS.add(PredictionScores, _prediction_scores)

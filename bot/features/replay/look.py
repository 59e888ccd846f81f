"""A finished game's replay: one self-contained HTML page (inline CSS and SVG, one small
inline script allowed by its hash, no font or picture from anywhere) rendered from the
game log that ``/mod log`` exports.

It reads as the game went: the score by round, the table revealed, then the whole game
round by round (``replay_story``: the Day's numbers, the Night's turns in initiative
order, the Morning's votes, every score change), with a "follow one seat" filter; then
every seat's private news, every roll, and the seed with how to check it. It fits a
phone's width: wide tables scroll inside their own box."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from datetime import datetime
from html import escape
from importlib import resources
from string import Template
from typing import Any

from bot.features.replay.look_chart import score_svg
from bot.features.replay.look_story import Story
from bot.i18n import has_key, normalize_locale, t, terms
from bot.render import words
from bot.render.chart import survivor_bonus
from bot.render.events import render_event
from bot.render.palette import FACTIONS
from engine.classes import skill_names
from engine.events import Audience, Event
from engine.night.turns import logged_turns
from engine.scoring import SURVIVOR_POINTS

# Markdown the event lines may carry: a backslash escape (a player's name), bold, code.
_MARKDOWN = re.compile(r"\\([^\sA-Za-z0-9])|\*\*|`([^`\n]*)`")


def inline(text: str) -> str:
    """An event line (Discord markdown) as HTML: escaped, bold and code kept."""
    out: list[str] = []
    pos, bold = 0, False
    for m in _MARKDOWN.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append(escape(m.group(1)))
        elif m.group(0) == "**":
            out.append("</strong>" if bold else "<strong>")
            bold = not bold
        else:
            out.append(f"<code>{escape(m.group(2))}</code>")
        pos = m.end()
    out.append(escape(text[pos:]))
    if bold:
        out.append("</strong>")
    return "".join(out).replace("\n", "<br>")


# The "follow one seat" filter: rows that do not involve the chosen seat are hidden.
FILTER_SCRIPT = """
document.getElementById("follow").addEventListener("change", function (ev) {
  var seat = ev.target.value;
  document.querySelectorAll("#story [data-seats]").forEach(function (row) {
    row.hidden = seat !== "" && row.getAttribute("data-seats").split(" ").indexOf(seat) < 0;
  });
  document.querySelectorAll("#story li:not([data-seats])").forEach(function (row) {
    row.hidden = seat !== "";
  });
});
"""
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(FILTER_SCRIPT.encode()).digest()).decode()


def _template() -> Template:
    return Template((resources.files("bot.features.replay") / "templates" / "replay.html").read_text(encoding="utf-8"))


def _events(step: dict[str, Any]) -> list[Event]:
    return [Event.from_dict(e) for e in step.get("events") or []]


def _told(step: dict[str, Any]) -> list[Event]:
    """A step's events as its reports told them: a night's with each seat's own turns
    put in where they came (engine.night.turns), as its night report and /recap have them."""
    told = logged_turns(str(step["kind"]), str(step["phase"]), step.get("events") or [], step.get("inputs") or {}, step.get("state") or {})
    return [Event.from_dict(e) for e in told]


def step_label(step: dict[str, Any], loc: str) -> str:
    """What a step of the log was: the close of a phase, a departure by a moderator..."""
    kind = str(step["kind"])
    key = f"replay.step.{kind}_{step['phase']}" if kind == "advance" else f"replay.step.{kind}"
    return t(key if has_key(key) else "replay.step.other", loc, round=step["round"], kind=kind)


def _faction(value: str, loc: str) -> str:
    return f'<span class="f-{escape(value)}">{escape(terms.faction(value, loc))}</span>'


def _list(lines: Iterable[str]) -> str:
    items = "".join(f"<li>{inline(line)}</li>" for line in lines)
    return f"<ul>{items}</ul>"


class Replay:
    """The page for one complete log in one language."""

    def __init__(self, log: dict[str, Any], locale: str | None = None) -> None:
        self.log = log
        self.game: dict[str, Any] = log["game"]
        self.loc = normalize_locale(locale or self.game.get("language"))
        self.steps: list[dict[str, Any]] = sorted(log["steps"], key=lambda s: int(s["seq"]))
        self.holders: list[dict[str, Any]] = log.get("players") or []
        self.final: dict[str, Any] = self.steps[-1]["state"]
        # A forgotten holder left no name (bot.features.stats.privacy): "a former player".
        self.former = t("stats.former_player", self.loc)
        self.names: dict[int, str] = {int(p["seat"]): str(p["name"]) or self.former for p in self.final["players"]}
        # Event lines are Discord markdown, as in the posts: names escaped there, so
        # that :func:`inline` shows them as typed.
        self.md_names = {int(p["seat"]): words.shown_name(str(p["name"]), self.loc) for p in self.final["players"]}
        ended = next((e for s in self.steps for e in _events(s) if e.kind == "GameEnded"), None)
        self.ended = ended.data if ended else None

    def html(self) -> str:
        loc = self.loc
        title = t("replay.title", loc, game=self.game["id"])
        body = [
            f"<h1>{escape(title)}</h1>",
            self.summary(),
            f"<h2>{escape(t('replay.scores', loc))}</h2>",
            self.chart(),
            f"<h2>{escape(t('replay.table', loc))}</h2>",
            self.table(),
            f"<h2>{escape(t('replay.timeline', loc))}</h2>",
            f'<p class="sub">{escape(t("replay.timeline_intro", loc))}</p>',
            self.follow(),
            f'<div id="story">{self.timeline()}</div>',
            f"<h2>{escape(t('replay.private', loc))}</h2>",
            f'<p class="sub">{escape(t("replay.private_intro", loc))}</p>',
            self.private(),
            f"<h2>{escape(t('replay.rolls', loc))}</h2>",
            f'<p class="sub">{escape(t("replay.rolls_intro", loc))}</p>',
            self.rolls(),
            self.predictions(self.log.get("predictions") or []),
            f"<h2>{escape(t('replay.seed', loc))}</h2>",
            self.seed(),
            f"<footer>{escape(t('replay.footer', loc))}</footer>",
        ]
        lang = "zh-Hans" if loc == "zh-CN" else "en"
        return _template().substitute(lang=lang, title=escape(title), body="\n".join(body), script=FILTER_SCRIPT, script_hash=SCRIPT_HASH)

    def predictions(self, picks: list[dict[str, Any]]) -> str:
        """The gallery's predictions, round by round (who picked which faction), and each
        forecaster's Brier score against the winners, as the log carries them; nothing when
        nobody predicted."""
        if not picks:
            return ""
        loc = self.loc
        names = {int(p["user_id"]): str(p.get("name") or "") or self.former for p in picks}
        rounds: dict[int, dict[str, list[str]]] = {}
        for p in picks:
            rounds.setdefault(int(p["round"]), {}).setdefault(str(p["faction"]), []).append(names[int(p["user_id"])])
        factions = list(FACTIONS)
        head = "".join(f"<th>{escape(terms.faction(f, loc))}</th>" for f in factions)
        rows = []
        for r, by in sorted(rounds.items()):
            cells = "".join(f"<td>{len(by.get(f, []))} {escape(', '.join(by.get(f, [])))}</td>" for f in factions)
            rows.append(f"<tr><td>{escape(t('replay.predictions_round', loc, round=r))}</td>{cells}</tr>")
        parts = [
            f"<h2>{escape(t('replay.predictions', loc))}</h2>",
            f'<p class="sub">{escape(t("replay.predictions_intro", loc))}</p>',
            f'<table class="predictions"><tr><th></th>{head}</tr>{"".join(rows)}</table>',
        ]
        scores = self.log.get("prediction_scores") or []  # worked out by the export (bot.features.gallery.predictions)
        if scores:
            parts.append(_list(
                t("replay.predictions_score", loc, name=names.get(int(x["user_id"]), self.former), brier=f"{float(x['brier']):.3f}", rounds=int(x["rounds"]))
                for x in scores
            ))  # fmt: skip
        return "\n".join(parts)

    def follow(self) -> str:
        options = [f'<option value="">{escape(t("replay.follow_all", self.loc))}</option>']
        options += [f'<option value="{seat}">{escape(words.seat_label(seat, self.names))}</option>' for seat in sorted(self.names)]
        return f'<p class="follow"><label for="follow">{escape(t("replay.follow", self.loc))}</label> <select id="follow">{"".join(options)}</select></p>'

    def summary(self) -> str:
        loc, g = self.loc, self.game
        when = _date(g.get("ended_at") or g.get("started_at"))
        facts = [
            (t("replay.fact_date", loc), escape(when)),
            (t("replay.fact_players", loc), str(len(self.names))),
            (t("replay.fact_rounds", loc), str(g.get("round"))),
        ]
        if self.ended:
            winners = words.listing((terms.faction(w, loc) for w in self.ended["winners"]), loc)
            facts.append((t("replay.fact_winners", loc), f'<span class="winner">{escape(winners)}</span>'))
            facts.append((t("replay.fact_reason", loc), escape(t(f"end_reason.{self.ended['reason']}", loc))))
        else:
            facts.append((t("replay.fact_winners", loc), escape(t("replay.cancelled", loc))))
        items = "".join(f"<li><b>{escape(k)}</b>{v}</li>" for k, v in facts)
        return f'<ul class="facts">{items}</ul>'

    def chart(self) -> str:
        loc = self.loc
        by_round: dict[int, dict[str, int]] = {}
        for s in self.steps:
            if s["kind"] != "start":
                by_round[int(s["round"])] = {str(k): int(v) for k, v in s["state"]["scores"].items()}
        if not by_round:
            return f'<p class="quiet">{escape(t("replay.no_rounds", loc))}</p>'
        win = int((self.final.get("settings") or {}).get("win_score", 15))
        labels = {f: terms.faction(f, loc) for f in FACTIONS}
        winners = list(self.ended["winners"]) if self.ended else []
        survivors = survivor_bonus(self.ended.get("roster") or [], SURVIVOR_POINTS) if self.ended else {}
        return score_svg(
            sorted(by_round.items()), labels, winners, win, t("replay.scores", loc), t("replay.axis_round", loc),
            survivors=survivors, survivors_label=t("ui.chart_survivors", loc),
        )

    def table(self) -> str:
        loc = self.loc
        head = [t(f"replay.col_{c}", loc) for c in ("seat", "player", "class", "faction", "fate", "grails")]
        rows = []
        for p in self.final["players"]:
            seat = int(p["seat"])
            earlier = [h["name"] or self.former for h in self.holders if h.get("seat") == seat and h.get("status") in ("replaced", "removed") and h["name"] != p["name"]]
            name = escape(self.names[seat]) + (f'<br><span class="gone">{escape(t("replay.earlier", loc, names=words.listing(earlier, loc)))}</span>' if earlier else "")
            fate = t("replay.alive", loc) if p.get("alive") else t("replay.dead", loc)
            rows.append(
                f"<tr><td class=num>{seat}</td><td>{name}</td><td>{escape(terms.class_name(p['class_id'], loc))}</td>"
                f"<td>{_faction(p['faction'], loc)}</td><td{' class=gone' if not p.get('alive') else ''}>{escape(fate)}</td>"
                f"<td class=num>{int(p.get('grails_banked', 0))}</td></tr>"
            )
        if self.ended:
            scores = words.listing((f"{terms.faction(f, loc)} {v}" for f, v in sorted(self.ended["scores"].items(), key=lambda kv: -kv[1])), loc)
            rows.append(f'<tr><td colspan="6"><strong>{escape(t("replay.final_scores", loc, scores=scores))}</strong></td></tr>')
        header = "".join(f"<th>{escape(h)}</th>" for h in head)
        return f'<div class="scroll"><table><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'

    def timeline(self) -> str:
        loc, out = self.loc, []
        story = Story(loc, self.names, self.md_names, inline)
        for round_no, steps in _by_round(self.steps):
            parts = []
            for s in steps:
                items = [line.render() for line in story.step(_events(s), s.get("rolls") or [])]
                items += [f"<li class=public>{inline(self.end_line(e.data))}</li>" for e in _events(s) if e.kind == "GameEnded"]
                if s["kind"] == "start":
                    items.insert(0, f"<li>{inline(t('replay.started', loc, count=len(s['state']['players'])))}</li>")
                body = f'<ul class="story">{"".join(items)}</ul>' if items else f'<p class="quiet">{escape(t("replay.nothing_public", loc))}</p>'
                parts.append(f'<div class="step step-{escape(str(s.get("phase") or s["kind"]))}"><h4>{escape(step_label(s, loc))}</h4>{body}</div>')
            heading = t("replay.round", loc, round=round_no) if round_no else t("replay.before", loc)
            out.append(f'<section class="round" data-round="{round_no}"><h3>{escape(heading)}</h3>{"".join(parts)}</section>')
        return "\n".join(out)

    def end_line(self, ended: dict[str, Any]) -> str:
        loc = self.loc
        winners = words.listing((terms.faction(w, loc) for w in ended["winners"]), loc)
        return t("replay.ended", loc, winners=f"**{winners}**", reason=t(f"end_reason.{ended['reason']}", loc))

    def private(self) -> str:
        loc, out = self.loc, []
        for p in self.final["players"]:
            seat = int(p["seat"])
            parts = []
            for s in self.steps:
                lines = [render_event(e, loc, self.md_names) for e in _told(s) if e.audience is Audience.PRIVATE and e.seat == seat]
                if lines:
                    parts.append(f'<div class="step"><h4>{escape(step_label(s, loc))}</h4>{_list(lines)}</div>')
            head = f"{words.seat_name(seat, escape(p['name']))} · {escape(terms.class_name(p['class_id'], loc))} · {_faction(p['faction'], loc)}"
            body = "".join(parts) or f'<p class="quiet">{escape(t("replay.nothing_private", loc))}</p>'
            out.append(f"<details><summary>{head}</summary>{body}</details>")
        return "\n".join(out)

    def rolls(self) -> str:
        loc, out = self.loc, []
        head = "".join(f"<th>{escape(t(f'replay.col_{c}', loc))}</th>" for c in ("step", "who", "why", "die", "result", "need"))
        for round_no, steps in _by_round(self.steps):
            rows, count = [], 0
            for s in steps:
                label = escape(step_label(s, loc))
                for r in s.get("rolls") or []:
                    count += 1
                    rows.append(
                        f"<tr><td>{label}</td><td>{escape(self.who(r.get('who')))}</td><td>{escape(self.why(str(r.get('why', ''))))}</td>"
                        f"<td class=num>d{int(r['die'])}</td><td class=num>{int(r['result'])}</td><td>{self.need(r)}</td></tr>"
                    )
            if rows:
                summary = escape(t("replay.round_rolls", loc, round=round_no, count=count))
                out.append(f'<details><summary>{summary}</summary><div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div></details>')
        return "\n".join(out) or f'<p class="quiet">{escape(t("replay.no_rolls", loc))}</p>'

    def who(self, seat: int | None) -> str:
        return words.seat_label(int(seat), self.names) if seat is not None else t("replay.table_roll", self.loc)

    def why(self, why: str) -> str:
        return roll_reason(why, self.names, self.loc)

    def need(self, roll: dict[str, Any]) -> str:
        need = roll.get("need")
        if need is None:
            return ""
        ok = int(roll["result"]) <= int(need)
        word = t("replay.roll_ok" if ok else "replay.roll_failed", self.loc, need=need)
        return f'<span class="{"ok" if ok else "ko"}">{escape(word)}</span>'

    def seed(self) -> str:
        loc, g = self.loc, self.game
        seed, sha = g.get("seed"), g.get("seed_sha256") or ""
        rows = [f"<p>{escape(t('replay.seed_value', loc))} <span class=seed>{escape(str(seed))}</span></p>"]
        if isinstance(g.get("rules_version"), int):  # (logs exported before versions were recorded name none)
            rows.insert(0, f"<p class=rules-version>{escape(t('replay.rules_version', loc, version=g['rules_version']))}</p>")
        rows.append(f"<p>{escape(t('replay.seed_sha', loc))} <span class=seed>{escape(sha)}</span></p>")
        rows.append(f"<p>{escape(t('replay.verify_intro', loc))}</p>")
        game = g["id"]
        rows.append(f"<pre>wolfhowl export {game} --format json --out wolfhowl-game-{game}.json\nwolfhowl verify wolfhowl-game-{game}.json</pre>")
        rows.append(f"<p>{inline(t('replay.verify_sha', loc))}</p>")
        return "\n".join(rows)


def roll_reason(why: str, names: dict[int, str], loc: str) -> str:
    """A roll's reason in words: its kind (a skill by its name), then the seats it names
    ("attack:4" is "attack → #4 Ann"; "wound-roll-2", a seat's second wound roll, is
    "wound roll 2")."""
    head, *rest = why.split(":")
    numbered = re.fullmatch(r"(.+?)-(\d+)", head)
    text = f"{_reason(numbered[1], loc)} {numbered[2]}" if numbered else _reason(head, loc)
    if head.startswith("classes-"):
        text = f"{_reason('classes', loc)} ({terms.faction(head.removeprefix('classes-'), loc)})"
    elif head.endswith("-reflex"):  # the target's save against a spell
        text = f"{_reason(head.removesuffix('-reflex'), loc)} ({t('replay.why.reflex', loc)})"
    extra: list[str] = []
    for i, x in enumerate(rest):
        if x == "companion" and i + 1 < len(rest) and rest[i + 1].isdigit():
            continue  # "attack:companion:3": the attack falls on seat 3's wolf
        if x.isdigit() and i and rest[i - 1] == "companion":
            extra.append(t("replay.why.wolf_of", loc, name=words.seat_label(int(x), names)))
        else:
            extra.append(words.seat_label(int(x), names) if x.isdigit() else _reason(x, loc))
    return " → ".join([text, *extra]) if extra else text


def _reason(word: str, loc: str) -> str:
    key = f"replay.why.{word.replace('-', '_')}"
    if has_key(key):
        return t(key, loc)
    skill = skill_names().get(word.replace("-", "_"))
    return skill[loc] if skill else word  # type: ignore[index]


def _by_round(steps: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for s in steps:
        out.setdefault(int(s["round"]), []).append(s)
    return sorted(out.items())


def _date(iso: str | None) -> str:
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC") if iso else "—"


def replay_html(log: dict[str, Any], locale: str | None = None) -> str:
    """The replay page of a complete game log (see ``bot.features.replay.export``), in ``locale``
    (default: the game's language)."""
    if not log.get("complete") or not log.get("steps"):
        raise ValueError("a replay needs the complete log of a game that was played")
    return Replay(log, locale).html()

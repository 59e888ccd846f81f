"""Dealing the roles (RULES: Roles; R1)."""

from __future__ import annotations

from engine import fair_deal, rules
from engine.classes import FACTION_ROWS, class_spec
from engine.dice import Dice
from engine.errors import OutOfRangeError
from engine.lineup import Lineup
from engine.model import GameState, Player, Settings
from engine.uneven import give_head_start
from engine.values import FACTIONS, Faction

MIN_PLAYERS = 6
MAX_PLAYERS = 15


def faction_sizes(n: int, dice: Dice) -> dict[Faction, int]:
    """As equal as possible; which factions get the extra seats is rolled."""
    base, extra = divmod(n, 3)
    order = list(FACTIONS)
    dice.shuffle(order, "faction-extra")
    return {f: base + (1 if f in order[:extra] else 0) for f in FACTIONS}


def deal(n: int, dice: Dice, lineup: Lineup | None = None) -> list[tuple[Faction, str]]:
    """(faction, class) per seat: drawn by lot from each faction's row (below 15 players,
    from rules version 6, among the line-ups :mod:`engine.fair_deal` rates even), or,
    with a ``lineup``, its roles with only the seats drawn."""
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise OutOfRangeError(what="what.players", low=MIN_PLAYERS, high=MAX_PLAYERS, value=n)
    if lineup is not None:
        lineup.check(n)
        seated = lineup.roles()
        dice.shuffle(seated, "seats")
        return seated
    sizes = faction_sizes(n, dice)
    roles: list[tuple[Faction, str]] = []
    if fair_deal.applies(n):
        for faction, row in zip(FACTIONS, fair_deal.draw(n, sizes, dice), strict=True):
            roles.extend((faction, c) for c in row)
    else:
        for faction, size in sizes.items():
            classes = list(FACTION_ROWS[faction])
            dice.shuffle(classes, f"classes-{faction.value}")
            roles.extend((faction, c) for c in classes[:size])
    dice.shuffle(roles, "seats")
    return roles


def new_game(names: list[str], seed: str, settings: Settings | None = None) -> GameState:
    """A fresh game at Day 1: seats 1..n in the order of ``names``, roles dealt from
    ``seed`` (and the settings' line-up, when they fix one), with the class numbers of
    the settings' rules version."""
    settings = settings or Settings()
    with rules.playing(settings.rules_version):
        return _deal_game(names, seed, settings)


def _deal_game(names: list[str], seed: str, settings: Settings) -> GameState:
    dice = Dice.for_phase(seed, 0, "deal")
    players = []
    dealt = deal(len(names), dice, settings.lineup)
    for seat, (name, (faction, class_id)) in enumerate(zip(names, dealt, strict=True), start=1):
        spec = class_spec(class_id)
        players.append(
            Player(
                seat=seat,
                name=name,
                class_id=class_id,
                faction=faction,
                hp=spec.hp,
                max_hp=spec.hp,
                memory=dict(spec.memory),
            )
        )
    state = GameState(players=players, settings=settings)
    give_head_start(state)  # house rule uneven_tables (engine.uneven)
    return state

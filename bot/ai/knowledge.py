"""What one player has learned: its own sheet, the public table, and the events addressed
to it (its private ones and the public ones), accumulated over the game.

The AI decides from a :class:`Knowledge` alone; it never sees a ``GameState``. Every event
goes through :meth:`Knowledge.see`, which refuses audit events and other players'
private events, so a leak fails loudly instead of silently making the AI smarter.

What a player may deduce about another seat is kept as a *candidate mask*: a bit per
role of the roster (faction, class) that the seat may still hold. Identification answers,
public departures and class skills that reveal a trait or a faction narrow the masks;
roles are unique (each faction draws its classes without replacement), so a seat whose
role is known rules that role out for every other seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from engine.classes import FACTION_ROWS, catalogue
from engine.events import Audience, Event
from engine.submissions import Guess, Identification, Submission

# The roster's roles, one bit each: (faction, class_id).
ROLES: tuple[tuple[str, str], ...] = tuple(
    (faction.value, class_id) for faction, row in FACTION_ROWS.items() for class_id in row
)
ALL_ROLES = (1 << len(ROLES)) - 1
FACTIONS: tuple[str, ...] = tuple(f.value for f in FACTION_ROWS)
FACTION_MASK: dict[str, int] = {
    f: sum(1 << i for i, (rf, _) in enumerate(ROLES) if rf == f) for f in FACTIONS
}
CLASS_MASK: dict[str, int] = {}
for _i, (_f, _c) in enumerate(ROLES):
    CLASS_MASK[_c] = CLASS_MASK.get(_c, 0) | (1 << _i)


# Enum members looked up once: attribute access on an Enum class is slow in the hot loop.
PRIVATE = Audience.PRIVATE
PUBLIC = Audience.PUBLIC


class InformationLeakError(Exception):
    """An event the player may not see was handed to its Knowledge."""


@cache
def trait_masks() -> dict[str, int]:
    """Roles having each trait, from the class data (loaded on first use)."""
    out: dict[str, int] = {}
    specs = catalogue()
    for i, (_, class_id) in enumerate(ROLES):
        spec = specs.get(class_id)
        if spec is None:
            continue
        for t in spec.traits:
            out[t.value] = out.get(t.value, 0) | (1 << i)
    return out


def guess_mask(what: str, value: str) -> int:
    """The roles for which "seat is ``value``" (a trait, class or faction) is true."""
    if what == "faction":
        return FACTION_MASK.get(value, 0)
    if what == "class":
        return CLASS_MASK.get(value, 0)
    return trait_masks().get(value, 0)


def role_bit(faction: str, class_id: str) -> int:
    return 1 << ROLES.index((faction, class_id))


class Knowledge:
    """One seat's view of the game. Built from its sheet and the public table, fed with
    the events it may see and the submissions it sent itself."""

    __slots__ = (
        "_others",
        "alive",
        "cand",
        "class_id",
        "confirmed_seen",
        "enemy_mask",
        "faction",
        "friend_mask",
        "hp",
        "max_hp",
        "n",
        "pe",
        "phase",
        "private_log",
        "round",
        "seat",
        "sent_guesses",
        "sheet",
        "size_exact",
        "version",
        "vote_damage",
        "won_grail_round",
    )

    def __init__(self, sheet: Mapping[str, Any], table: Sequence[Mapping[str, Any]]) -> None:
        self.seat: int = int(sheet["seat"])
        self.class_id: str = str(sheet["class_id"])
        self.faction: str = str(sheet["faction"])
        self.n = len(table)
        self.sheet: Mapping[str, Any] = sheet
        self.confirmed_seen = 0
        self.hp: int = int(sheet["hp"])
        self.max_hp: int = int(sheet["max_hp"])
        self.round = 1
        self.phase = "day"
        self.friend_mask = FACTION_MASK[self.faction]
        self.enemy_mask = ALL_ROLES & ~self.friend_mask
        mine = role_bit(self.faction, self.class_id)
        self.cand: list[int] = [ALL_ROLES & ~mine] * (self.n + 1)
        self.cand[0] = 0
        self.cand[self.seat] = mine
        # p_enemy per seat, kept in step with ``cand``.
        start = ALL_ROLES & ~mine
        self.pe: list[float] = [(start & self.enemy_mask).bit_count() / start.bit_count()] * (self.n + 1)
        self.pe[self.seat] = 0.0
        self.alive: list[bool] = [False] + [bool(r["alive"]) for r in table]
        self._others: list[int] | None = None
        # Bumped whenever anything the AI ranks seats by changes (a cache key).
        self.version = 0
        # Faction sizes are exact only when the table divides by three (R1).
        self.size_exact = self.n // 3 if self.n % 3 == 0 else 0
        self.vote_damage: list[int] = [0] * (self.n + 1)
        self.won_grail_round = 0
        self.sent_guesses: tuple[Guess, ...] = ()
        self.private_log: list[Event] = []

    def copy(self) -> Knowledge:
        """An independent copy: what one copy is fed or told, the other is not (the
        events and sheets they share are never changed, only replaced)."""
        other = Knowledge.__new__(Knowledge)
        for name in Knowledge.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    # -- feeding ---------------------------------------------------------------------
    def update_table(self, table: Iterable[Mapping[str, Any]]) -> None:
        """The public table: who is still in the game."""
        alive = self.alive
        for row in table:
            alive[row["seat"]] = bool(row["alive"])
        self._others = None
        self.version += 1

    def update_sheet(self, sheet: Mapping[str, Any]) -> None:
        """The player's own sheet, as ``engine.view.sheet`` shows it."""
        if sheet["seat"] != self.seat:
            raise InformationLeakError(f"seat {self.seat} was shown seat {sheet['seat']}'s sheet")
        self.sheet = sheet
        self.hp = int(sheet["hp"])
        self.max_hp = int(sheet["max_hp"])
        confirmed = sheet.get("confirmed", ())
        # The sheet lists every confirmation so far; only new ones can teach anything.
        for g in confirmed[self.confirmed_seen :]:
            self.learn(int(g["target"]), str(g["what"]), str(g["value"]), True)
        self.confirmed_seen = len(confirmed)

    def set_phase(self, round_no: int, phase: str) -> None:
        """The clock is public: the round number and the phase everyone is in."""
        self.round = round_no
        self.phase = phase

    def note_sent(self, submissions: Iterable[Submission]) -> None:
        """Remember the identifications this player itself sent, to read the answer:
        a guess that is not confirmed is false (RULES: Identification)."""
        for sub in submissions:
            if isinstance(sub, Identification):
                self.sent_guesses = sub.guesses

    def see(self, event: Event) -> None:
        """Take in one event; only public events and this seat's private ones are allowed."""
        aud = event.audience
        if aud is PRIVATE:
            if event.seat != self.seat:
                raise InformationLeakError(f"seat {self.seat} was shown seat {event.seat}'s {event.kind}")
            self._private(event)
        elif aud is PUBLIC:
            self._public(event)
        else:
            raise InformationLeakError(f"seat {self.seat} was shown audit event {event.kind}")

    def _private(self, e: Event) -> None:
        kind = e.kind
        d = e.data
        if kind == "IdentificationAnswered":
            confirmed = {(int(g["target"]), g["what"], g["value"]) for g in d.get("confirmed", ())}
            for g in self.sent_guesses:
                self.learn(g.target, g.what, g.value, (g.target, g.what, g.value) in confirmed)
            self.sent_guesses = ()
        elif kind in ("DamageTaken", "Healed", "Recovered"):
            self.hp = int(d["hp"])
        elif kind == "GrailWon":
            self.won_grail_round = int(d.get("round", self.round))
        elif kind in ("YouDied", "YouWereRemoved"):
            self.alive[self.seat] = False
            self._others = None
            self.version += 1
        else:
            self._reveal(d)
            self.private_log.append(e)

    def _public(self, e: Event) -> None:
        kind = e.kind
        d = e.data
        if kind == "VotesCounted":
            for seat in d.get("hurt", ()):
                self.vote_damage[seat] += 1
                self.version += 1
        elif kind == "PlayerLeft":
            seat = int(d["seat"])
            self.alive[seat] = False
            self._others = None
            self.version += 1
            if "faction" in d:
                self.learn(seat, "faction", str(d["faction"]), True)
            if "class_id" in d:
                self.learn(seat, "class", str(d["class_id"]), True)
        elif kind == "FactionWipedOut":
            mask = FACTION_MASK.get(str(d["faction"]), 0)
            for seat in range(1, self.n + 1):
                if self.alive[seat]:
                    self._narrow(seat, self.cand[seat] & ~mask)

    def _reveal(self, d: Mapping[str, Any]) -> None:
        """Class skills that tell a true trait, class or faction of a seat: any private
        event naming a seat (``target``/``seat``) with one (bardic knowledge), or a list
        of them under ``dead`` (speak with dead)."""
        facts = d.get("dead")
        for fact in (facts if isinstance(facts, list) else [d]):
            seat = fact.get("target", fact.get("seat"))
            if not isinstance(seat, int) or not 1 <= seat <= self.n or seat == self.seat:
                continue
            for key, what in (("trait", "trait"), ("class_id", "class"), ("faction", "faction")):
                value = fact.get(key)
                if isinstance(value, str):
                    self.learn(seat, what, value, True)

    # -- deduction -------------------------------------------------------------------
    def learn(self, seat: int, what: str, value: str, true: bool) -> None:
        """"``seat`` is ``value``" is ``true`` (or false): narrow that seat's roles."""
        if seat == self.seat or not 1 <= seat <= self.n:
            return
        mask = guess_mask(what, value)
        if not mask:
            return
        c = self.cand[seat]
        self._narrow(seat, c & mask if true else c & ~mask)

    def _narrow(self, seat: int, new: int) -> None:
        """Set a seat's candidate roles and follow the consequences: a role known for
        one seat is nobody else's; where faction sizes are exact, a faction whose members
        are all found is nobody else's, and one with just enough candidates is theirs."""
        cand = self.cand
        todo = [(seat, new)]
        while todo:
            s, new = todo.pop()
            old = cand[s]
            new &= old
            if new == 0 or new == old:
                continue  # nothing new (a contradiction would mean a wrong fact: ignore)
            cand[s] = new
            self.version += 1
            self.pe[s] = (new & self.enemy_mask).bit_count() / new.bit_count()
            if new & (new - 1) == 0:
                for o in range(1, self.n + 1):
                    if o != s and cand[o] & new:
                        todo.append((o, cand[o] & ~new))
            if self.size_exact:
                for mask in FACTION_MASK.values():
                    if (new & mask and (old & ~mask) and not new & ~mask) or (not new & mask and old & mask):
                        todo.extend(self._faction_count(mask))

    def _faction_count(self, mask: int) -> list[tuple[int, int]]:
        size = self.size_exact
        sure = maybe = 0
        for c in self.cand[1:]:
            if c & mask:
                maybe += 1
                if not c & ~mask:
                    sure += 1
        if maybe == sure:
            return []
        if sure == size:
            return [(s, c & ~mask) for s, c in enumerate(self.cand) if s and c & mask and c & ~mask]
        if maybe == size:
            return [(s, c & mask) for s, c in enumerate(self.cand) if s and c & mask and c & ~mask]
        return []

    # -- questions the AI asks -------------------------------------------------------
    @property
    def holds_grail(self) -> bool:
        """Won this round's allocation (the grail is banked at the night's end)."""
        return self.won_grail_round == self.round

    def others_alive(self) -> list[int]:
        """Living seats other than this one (do not modify the list)."""
        if self._others is None:
            alive = self.alive
            me = self.seat
            self._others = [s for s in range(1, self.n + 1) if alive[s] and s != me]
        return self._others

    def p_enemy(self, seat: int) -> float:
        """The chance that ``seat`` is in another faction, from its candidate roles."""
        return self.pe[seat]

    def is_friend(self, seat: int) -> bool:
        c = self.cand[seat]
        return not c & self.enemy_mask

    def is_enemy(self, seat: int) -> bool:
        c = self.cand[seat]
        return not c & self.friend_mask

    def known_faction(self, seat: int) -> str | None:
        c = self.cand[seat]
        for f, mask in FACTION_MASK.items():
            if not c & ~mask:
                return f
        return None

    def could_be(self, seat: int, what: str, value: str) -> float:
        """Share of ``seat``'s candidate roles for which the guess is true."""
        c = self.cand[seat]
        return (c & guess_mask(what, value)).bit_count() / c.bit_count()

    def skill_used(self, skill_id: str) -> bool:
        for s in self.sheet.get("skills", ()):
            if s["id"] == skill_id:
                return bool(s["used"])
        return False

    def memory(self, key: str, default: Any = None) -> Any:
        return self.sheet.get("memory", {}).get(key, default)

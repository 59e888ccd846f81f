"""The one source of chance. Every roll goes through a :class:`Dice` and is recorded."""

from __future__ import annotations

import hashlib
import random
from typing import Any, NamedTuple


class Roll(NamedTuple):
    """One recorded roll: who rolled, why, which die, what came up, what was needed.

    ``need`` is the highest result that succeeds for d100 checks (roll <= need), or None
    where the roll is not pass/fail (damage, initiative, picking among ties). A named
    tuple rather than a dataclass: a game records hundreds, and tuples build fastest.
    """

    who: int | None
    why: str
    die: int
    result: int
    need: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"who": self.who, "why": self.why, "die": self.die, "result": self.result, "need": self.need}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Roll:
        return cls(d["who"], d["why"], int(d["die"]), int(d["result"]), d.get("need"))


def derive_seed(game_seed: str, round_no: int, phase: str) -> int:
    """A phase's RNG seed: the game's secret seed hashed with the round and phase, so that
    each phase's dice are independent of how many rolls earlier phases made."""
    digest = hashlib.sha256(f"{game_seed}|{round_no}|{phase}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Dice:
    """A seeded roller that records every roll it makes."""

    __slots__ = ("_rng", "rolls")

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)
        self.rolls: list[Roll] = []

    @classmethod
    def for_phase(cls, game_seed: str, round_no: int, phase: str) -> Dice:
        return cls(derive_seed(game_seed, round_no, phase))

    def roll(self, die: int, who: int | None, why: str, need: int | None = None) -> int:
        result = self._rng.randint(1, die)
        self.rolls.append(Roll(who, why, die, result, need))
        return result

    def check(self, chance: int, who: int | None, why: str) -> bool:
        """d100 against a percentage: success when the roll <= chance."""
        return self.roll(100, who, why, need=chance) <= chance

    def pick(self, options: list[int], why: str) -> int:
        """Choose one of several (ties): a die as large as the list, recorded."""
        if len(options) == 1:
            return options[0]
        return options[self.roll(len(options), None, why) - 1]

    def shuffle(self, items: list[Any], why: str) -> None:
        """Fisher-Yates shuffle in place, each swap a recorded roll."""
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1, None, why) - 1
            items[i], items[j] = items[j], items[i]

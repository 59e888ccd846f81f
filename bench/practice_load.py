"""Practice games at once: N people, each practising alone against the AI in their DM.

    .venv/bin/python bench/practice_load.py [--people 20,50,100] [--players 8] [--think 2-5]
                                            [--seconds 60] [--split-process [--profile FILE]] [--json]

For each N (each in a fresh process) the real bot runs on a temporary SQLite database
against the local Discord, in the same process. N people each start ``/practice start``
in their DM with the bot (started a few at a time: setting up is not what is measured),
then play: at each phase that opens, the person thinks for a random ``--think`` seconds
and sends what the phase asks (as ``wolfhowl demo --practice`` plays it), and the phase
closes as soon as they have; for ``--seconds`` seconds.

Printed per N: the interactions sent and their rate; acknowledgement latency (dispatch to
the bot's first response: "This interaction failed" after 3 s) p50 and p99; interactions
not acknowledged in 3 s; the phases and rounds played; the CPU over the stretch, per
round played and as a share of a core. By default one process holds the bot, the
emulator and the people, and the CPU is that process's: it overstates the bot's own.
With ``--split-process`` the bot runs in a process of its own (``split_bot.py``, as
``bench/bot_load.py --split-process``): the CPU is then the bot's alone (the harness's is
in the JSON as ``harness_cpu_s``), and ``--profile FILE`` writes a cProfile of the bot's
main thread over the stretch.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.sandbox.people import Stats
from bot.sandbox.play_table import GameClock, Tavern
from bot.sandbox.practice import Practiser


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def person(p: Practiser, rng: random.Random, think: tuple[float, float], until: float) -> None:
    """Play phase after phase, thinking before each, until ``until`` (monotonic)."""
    phase, round_no = "day", 1
    while time.monotonic() < until:
        await asyncio.sleep(rng.uniform(*think))
        if time.monotonic() >= until or not await p.play_phase(round_no, phase, timeout=120):
            return
        phase, round_no = Practiser._after(phase, round_no)


async def measure(
    people: int, players: int, think: tuple[float, float], seconds: float, seed: str, split: bool = False, profile: str | None = None
) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(seed)
    if split:
        from split_bot import SharedClock, SplitTavern

        venue: Tavern = SplitTavern(clock=SharedClock(1.0), seed=seed, profile=profile)
    else:
        venue = Tavern(clock=GameClock(1.0), seed=seed)
    async with venue as tavern:
        assert tavern.guild is not None
        crowd = []
        for i in range(people):
            user = tavern.emu.create_user(f"p{i:03}", locale="zh-CN" if i % 2 else "en-US")
            tavern.emu.add_member(tavern.guild, user)
            crowd.append(Practiser(tavern, user, seed=f"{seed}-{i}", stats=stats))
        gate = asyncio.Semaphore(8)

        async def start(p: Practiser) -> None:
            async with gate:
                reply = await p.start({"players": players})
                if reply.error:
                    raise RuntimeError(f"/practice start was refused: {reply.text}")

        await asyncio.gather(*(start(p) for p in crowd))
        before = len(stats.ack)
        bot0 = await tavern.bot.mark() if split else None
        cpu0, t0 = time.process_time(), time.monotonic()
        await asyncio.gather(*(person(p, rng, think, t0 + seconds) for p in crowd))
        cpu, wall = time.process_time() - cpu0, time.monotonic() - t0
        harness_cpu = cpu
        if bot0 is not None:
            cpu = (await tavern.bot.mark())["cpu_s"] - bot0["cpu_s"]
        acks = stats.ack[before:]
        phases = sum(len(p.phases) for p in crowd)
        return {
            "people": people,
            "split_process": split,
            "players": players,
            "think_s": list(think),
            "seconds": round(wall, 1),
            "interactions": len(acks),
            "per_s": round(len(acks) / wall, 1),
            "ack_p50_ms": round(pct(acks, 0.5) * 1000, 1),
            "ack_p99_ms": round(pct(acks, 0.99) * 1000, 1),
            "not_acked_in_3s": stats.failed,
            "phases": phases,
            "rounds": round(phases / 3, 1),
            "cpu_s": round(cpu, 2),
            "cpu_ms_per_round": round(cpu * 1000 / max(1.0, phases / 3), 1),
            "cpu_share": round(cpu / wall, 3),
            "harness_cpu_s": round(harness_cpu, 2) if split else None,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", default="20,50,100", help="comma-separated counts of people practising at once")
    parser.add_argument("--players", type=int, default=8, help="players at each practice table, the person included")
    parser.add_argument("--think", default="2-5", help="seconds a person thinks before each phase's move: LOW-HIGH")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--seed", default="practice-load")
    parser.add_argument("--split-process", action="store_true", help="run the bot in its own process (the CPU is then the bot's alone)")
    parser.add_argument("--profile", metavar="FILE", help="with --split-process: cProfile the bot's main thread over the stretch into FILE")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # one N, in this process
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split("-"))
    if args.one is not None:
        logging.basicConfig(level=logging.ERROR)
        row = measure(args.one, args.players, (low, high), args.seconds, args.seed, args.split_process, args.profile)
        print(json.dumps(asyncio.run(row)))
        return
    rows = []
    for n in (int(x) for x in args.people.split(",")):
        cmd = [sys.executable, __file__, "--one", str(n), "--players", str(args.players), "--think", args.think, "--seconds", str(args.seconds), "--seed", args.seed]
        if args.split_process:
            cmd.append("--split-process")
        if args.profile:
            cmd += ["--profile", str(Path(args.profile).resolve())]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    if args.split_process:
        print("the CPU is the bot process's alone")
    print(f"{'people':>6} {'interactions':>12} {'per s':>6} {'ack p50':>8} {'ack p99':>8} {'>3 s':>5} {'rounds':>7} {'CPU/round':>10} {'CPU share':>9}")
    for r in rows:
        print(
            f"{r['people']:>6} {r['interactions']:>12} {r['per_s']:>6} {r['ack_p50_ms']:>6} ms {r['ack_p99_ms']:>6} ms "
            f"{r['not_acked_in_3s']:>5} {r['rounds']:>7} {r['cpu_ms_per_round']:>7} ms {r['cpu_share'] * 100:>8.0f}%"
        )


if __name__ == "__main__":
    main()

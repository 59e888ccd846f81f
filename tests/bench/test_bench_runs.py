"""The benchmarks still run and print their figures (tiny sizes: this checks that they
work, not how fast anything is; the figures live in docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_engine_bench_prints_games_per_second_and_the_split():
    out = bench("bench/engine.py", "--games", "2", "--split")
    assert "2 complete 15-player games" in out
    rate = float(out.split("games per second (CPU time):", 1)[1].split()[0])
    assert rate > 0
    for part in ("engine (new_game + advance, replayed)", "views", "AI decisions"):
        assert part in out


@pytest.mark.parametrize("split", [False, True], ids=["one-process", "split-process"])
def test_bot_load_bench_plays_a_game_and_reports_every_column(split: bool):
    args = ["bench/bot_load.py", "--games", "1", "--window", "2", "--json"]
    out = bench(*args, *(["--split-process"] if split else []))
    row = json.loads(out.strip().splitlines()[-1])
    assert row["games"] == 1 and row["players"] == 6 and row["split_process"] is split
    assert row["interactions"] > 0 and row["deadline_messages"] > 0
    assert row["emulator_errors"] == 0
    for key in ("ack_p50_ms", "ack_p99_ms", "deadline_to_last_s", "peak_rss_mb", "cpu_s"):
        assert row[key] >= 0
    if split:
        assert row["harness_cpu_s"] is not None
        assert row["writing_units_per_interaction"] > 0 and row["reading_units_per_interaction"] > 0


def test_bot_load_bench_measures_the_floor_with_a_command_instead_of_the_turns():
    out = bench("bench/bot_load.py", "--games", "1", "--window", "2", "--json", "--split-process", "--command", "help")
    row = json.loads(out.strip().splitlines()[-1])
    assert row["command"] == "help" and set(row["by_kind"]) == {"/help"}
    assert row["interactions"] >= 18 and row["interactions"] % 3 == 0  # three per living player and phase
    assert row["refused"] == 0 and row["unanswered"] == 0
    assert row["cpu_ms_per_interaction"] > 0 and row["requests_per_interaction"] >= 1


def test_stats_bench_prints_the_percentiles_on_sqlite():
    out = bench("bench/stats.py", "--games", "40", "--players", "30", "--queries", "5", "--sqlite", "--no-chart", "--json")
    row = json.loads(out.strip().splitlines()[-1])
    assert (row["backend"], row["games"], row["players"], row["seasons"]) == ("sqlite", 40, 30, 4)
    for key in ("stats", "stats_all", "leaderboard", "leaderboard_season"):
        assert 0 < row[key]["p50_ms"] <= row[key]["p99_ms"]


def test_deadline_burst_bench_reports_the_bound_and_the_429s():
    out = bench("bench/deadline_burst.py", "--games", "2", "--per-server", "1", "--json")
    row = json.loads(out.strip().splitlines()[-1])
    assert row["games"] == 2 and row["servers"] == 2
    assert row["messages"] > 0 and row["requests"] >= row["messages"]
    assert row["bound_s"] == round(row["requests"] / 50, 2) and row["ratio"] > 0
    assert row["global_429"] == 0
    assert row["ready_s"] > 0 and row["startup_check_s"] >= row["ready_s"]
    # The bot's own process: its CPU per delivered message and its memory.
    assert row["bot_cpu_s"] > 0
    assert row["bot_cpu_ms_per_message"] * row["messages"] / 1000 == pytest.approx(row["bot_cpu_s"], abs=0.01)
    assert row["bot_sql_per_message"] > 0
    assert 0 < row["bot_rss_before_mb"] <= row["bot_peak_rss_mb"]


def test_scale_bench_measures_a_burst_and_says_whether_the_harness_kept_up():
    out = bench("bench/scale.py", "--games", "3", "--per-server", "2", "--seconds", "1", "--rate", "5", "--idle", "1", "--json")
    row = json.loads(out.strip().splitlines()[-1])
    assert (row["games"], row["servers"], row["interactions"]) == (3, 2, 5)
    assert row["not_acked"] == 0 and row["not_answered"] == 0 and row["refused"] == 0
    assert 0 < row["ack_p50_ms"] <= row["ack_p99_ms"] <= row["answer_p99_ms"]
    assert row["cpu_ms_per_interaction"] > 0 and row["sql_per_interaction"] > 0
    assert row["achieved_rate"] > 0 and row["harness_cpu_share"] >= 0
    assert isinstance(row["harness_fell_behind"], list)
    assert 0 < row["rss_ready_mb"] <= row["peak_rss_mb"]
    assert row["quiet"] is True and 0 <= row["idle_cpu_share"] < 1  # three games: quiet at once
    by = row["answer_by_command"]
    assert set(by) <= {"grail", "me", "orders"} and all(0 < v["p50_ms"] <= v["p99_ms"] for v in by.values())


def test_unit_costs_bench_prints_each_case_on_sqlite():
    out = bench("bench/unit_costs.py", "--n", "20", "--runs", "2", "--json")
    row = json.loads(out.strip().splitlines()[-1])
    cases = row["us_per_repetition"]
    assert set(cases) == {"read unit", "write unit", "statement, SQLAlchemy", "statement, driver"}
    assert all(len(v) == 2 and all(x > 0 for x in v) for v in cases.values())


@pytest.mark.parametrize("split", [False, True], ids=["one-process", "split-process"])
def test_practice_bench_plays_practice_games_and_reports_every_column(split: bool):
    args = ["bench/practice_load.py", "--people", "2", "--players", "6", "--think", "0-0.5", "--seconds", "6", "--json"]
    out = bench(*args, *(["--split-process"] if split else []))
    (row,) = json.loads(out)
    assert row["people"] == 2 and row["players"] == 6 and row["split_process"] is split
    assert row["interactions"] > 0 and row["phases"] >= 2 and row["not_acked_in_3s"] == 0
    assert row["ack_p99_ms"] >= row["ack_p50_ms"] > 0 and row["cpu_ms_per_round"] > 0
    # Split, the CPU is the bot process's, the harness's apart.
    assert (row["harness_cpu_s"] is not None) is split


def test_compensation_search_halves_every_candidate_down_to_two():
    from bench.compensation_search import candidates, halve

    assert len(candidates()) == 162 and candidates()[0].text() == "head_start=0,kill=0,survivor=0,grail=0"
    final, arms, played = halve(7, first=1, jobs=1)
    assert len(final) == 2 and final[0].gap <= final[1].gap
    assert len(arms) == 162 and played == sum(arm.games for arm in arms)
    assert max(arm.games for arm in arms) == final[0].games > min(arm.games for arm in arms) == 1


def test_uneven_goal_reports_each_faction_by_its_share_against_the_band():
    out = json.loads(bench("-m", "bench.uneven_goal", "--sizes", "7", "--lineups", "random,classic", "--games", "60", "--jobs", "1", "--json"))
    random_row, classic_row = out["rows"]
    assert set(random_row["cells"]) <= {f"{f} ({s})" for f in ("lawful", "neutral", "chaotic") for s in ("larger", "smaller")}
    assert sorted(classic_row["cells"]) == ["chaotic (smaller)", "lawful (larger)", "neutral (smaller)"]
    assert out["failing"] == sum(not c["ok"] for row in out["rows"] for c in row["cells"].values())


def test_fair_deal_bench_fits_worths_the_engine_reads(tmp_path: Path):
    """Two tiny rounds at 7 players: the plain lot, then the fair deal under the worths of
    the first; the table it would write reads back as the engine reads its data file."""
    from bench.fair_deal import fitted, play, toml
    from engine import fair_deal

    plain = play(7, 60, 1, 0, {})
    table = {7: fitted(7, plain)}
    assert set(table[7].groups) == {"larger", "smaller"}
    dealt = play(7, 60, 1, 1, table)
    with fair_deal.trying(table):
        for roles, _ in dealt:
            seats = tuple(sum(f == g.value for f, _ in roles) for g in fair_deal.FACTIONS)
            rows = tuple(tuple(sorted(c for f, c in roles if f == g.value)) for g in fair_deal.FACTIONS)
            assert rows in {tuple(tuple(sorted(r)) for r in k) for k in fair_deal.even_lineups(7, seats)}
    assert fair_deal.read(toml(table, 60, 1)) == table


def test_fair_deal_bench_fits_worths_per_seating_the_engine_reads():
    """``--by-seating``: one set of worths per seating, each from its own games; the deal
    reads a line-up's by its seating, and the file reads back as written."""
    from bench.fair_deal import fitted_by_seating, play, toml
    from engine import fair_deal

    plain = play(8, 90, 1, 0, {})
    table = {8: fitted_by_seating(8, plain)}
    assert set(table[8].groups) == {"3/3/2", "3/2/3", "2/3/3"}
    assert table[8].groups["3/3/2"] != table[8].groups["2/3/3"]
    rows = (("warrior", "monk", "cleric"), ("barbarian", "wizard", "warrior"), ("barbarian", "sorcerer"))
    assert table[8].of(fair_deal.FACTIONS[2], rows, 8) == sum(table[8].groups["3/3/2"][fair_deal.FACTIONS[2]][c] for c in rows[2])
    assert fair_deal.read(toml(table, 90, 0, by_seating=True)) == table


def test_lineup_search_halves_down_to_one_and_reports_it():
    from bench.lineup_search import (
        balanced_arms,
        classic_arms,
        final,
        halve,
        kept,
        report,
    )
    from engine import fair_deal
    from engine.lineup import source_trim

    arms = balanced_arms(8, 3)
    assert len(arms) in (3, 4) and all(arm.lineups[8].size == 8 for arm in arms)
    said: list[str] = []
    best = halve(arms, 4, 1, said.append)
    assert len(said) == 2 and best.games[8] == 4 + 8  # four arms, then two, then the winner
    out = final(best, 6, 1)
    assert out.games == {8: 6} and report(out).startswith(best.name)
    # classic: the original's trim, and the even line-ups of its seats that keep most of it
    trim = source_trim(9)
    assert trim.text() == "warrior,monk,cleric/barbarian,wizard,warrior/barbarian,sorcerer,ranger"
    classic = classic_arms(9, 3)
    assert classic[-1].lineups[9] == trim and len(classic) == 4
    searched = [arm.lineups[9] for arm in classic[:-1]]
    assert all(fair_deal.spread(lu.rows, 9) <= fair_deal.SPREAD for lu in searched)
    assert all(tuple(map(len, lu.rows)) == (3, 3, 3) for lu in searched)
    assert [kept(lu, trim) for lu in searched] == sorted((kept(lu, trim) for lu in searched), reverse=True)
    assert kept(searched[0], trim) == 8  # one class of the nine changed


def test_walks_bench_traces_the_three_requests():
    out = bench("bench/walks.py", "--json")
    walks = json.loads(out.strip().splitlines()[-1])["walks"]
    assert set(walks) == {"act", "advance", "delivery"}
    assert all(w["files"] > 0 and w["files"] == len(w["entered"]) for w in walks.values())
    assert 0 < walks["advance"]["before_engine_advance"]["files"] < walks["advance"]["files"]
    assert walks["delivery"]["messages"] > 0


TOY_LAYERS = {"toy_discord.py": "discord", "toy_service.py": "service"}
TOY_DISCORD = '''
import asyncio, contextlib

async def handler(service):
    total = await service.work(3)  # suspends three times: one call, one return
    total += service.plain()
    task = asyncio.create_task(service.forever())  # a task's root: nothing below it
    await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return total + sum(service.numbers())
'''
TOY_SERVICE = '''
import asyncio

async def work(n):
    for _ in range(n):
        await asyncio.sleep(0)
    return n

def plain():
    return 1

async def forever():
    await deeper()  # cancelled there: both end by the exception thrown in

async def deeper():
    await asyncio.sleep(3600)

def numbers():
    yield from range(3)
'''


async def test_walks_counts_first_entries_and_final_returns_not_suspensions(tmp_path: Path):
    """bench/walks.py's tracer on two toy layers: a coroutine that awaits three times is
    one call and one return, a cancelled one still returns, a generator's each yield is
    not a return; each call across the layers and its return are a switch each."""
    import asyncio
    import importlib.util

    from bench.walks import Lineage, Tracer, Walk

    def load(name: str, text: str):
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    ui, core = load("toy_discord", TOY_DISCORD), load("toy_service", TOY_SERVICE)
    loop = asyncio.get_running_loop()
    lineage = Lineage()
    lineage.install(loop)
    try:
        tracer = Tracer(lineage, lambda filename: TOY_LAYERS.get(Path(filename).name))
        walk = Walk("toy")
        task = asyncio.create_task(ui.handler(core))
        walk.add_root(task)
        with tracer.tracing(walk):
            assert await task == 4 + 3
    finally:
        loop.set_task_factory(None)
    assert tracer.errors == []
    assert walk.calls == 6  # handler, work, plain, forever, deeper, numbers
    assert len(walk.tasks) == 2 and walk.live == {}
    # work, plain and numbers across and back; forever is its task's root, deeper its own layer's
    assert (walk.across, walk.back) == (3, 3)
    assert [Path(f).name for f in walk.files] == ["toy_discord.py", "toy_service.py"]


def test_player_calls_bench_prints_each_service_call():
    out = bench("bench/player_calls.py", "--calls", "5")
    rows = {line.split()[0]: line for line in out.strip().splitlines()}
    assert set(rows) == {"view_here", "grail", "grail+view", "require_open"}
    for line in rows.values():
        assert float(line.split("cpu ")[1].split()[0]) > 0

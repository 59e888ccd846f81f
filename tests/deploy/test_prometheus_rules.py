"""The Prometheus files shipped in deploy/prometheus/: the alerting rules pass ``promtool
check rules`` and their own unit tests (``promtool test rules``), the scrape
configuration passes ``promtool check config``, and docs/deploy.md's compose file
scrapes every bot process it runs, each serving its metrics."""

from __future__ import annotations

import re
from pathlib import Path

from tests.prometheus import promtool

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "deploy" / "prometheus"
ALERTS = ("WolfhowlInteractionsFailing", "WolfhowlOutboxStuck", "WolfhowlGlobalRateLimited", "WolfhowlRouteRateLimited", "WolfhowlShardDown", "WolfhowlHeartbeatStale", "WolfhowlDatabaseUnreadable")


def test_the_rules_pass_promtool_check():
    result = promtool("check", "rules", str(FOLDER / "alerts.yml"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def test_the_rules_pass_their_unit_tests():
    result = promtool("test", "rules", "alerts_test.yml", cwd=FOLDER)
    assert result.returncode == 0, result.stdout + result.stderr
    tests = (FOLDER / "alerts_test.yml").read_text(encoding="utf-8")
    for alert in ALERTS:  # each of these alerts is tested, firing
        assert re.search(rf"alertname: {alert}\n\s+exp_alerts:\n\s+- exp_labels", tests), alert


def test_the_scrape_configuration_passes_promtool_check():
    result = promtool("check", "config", str(FOLDER / "prometheus.yml"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_compose_file_scrapes_every_bot_process():
    """docs/deploy.md's sharded compose file: a Prometheus service with this folder's
    configuration, whose targets are exactly the bot services, each serving metrics on
    the port scraped and on an address the other containers reach."""
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    compose = next(block for block in re.findall(r"```yaml\n(.*?)```", text, re.S) if "prometheus:" in block and "bot-a:" in block)
    bots = re.findall(r"^  (bot-[a-z0-9]+):$", compose, re.M)
    assert len(bots) >= 2
    assert "WOLFHOWL_METRICS_PORT: \"9400\"" in compose and "WOLFHOWL_METRICS_HOST: 0.0.0.0" in compose
    assert "./deploy/prometheus:/etc/prometheus:ro" in compose
    config = (FOLDER / "prometheus.yml").read_text(encoding="utf-8")
    targets = re.findall(r'"([a-z0-9-]+):9400"', config)
    assert sorted(targets) == sorted(bots)

"""The real bot on the local Discord emulator: the order panel's menus and the grail form,
drawn by one process and answered after a restart by the next."""

from __future__ import annotations

from tests.bot.conftest import Table, reply_text, start_bot, started_game


async def test_the_order_panel_by_menus_and_after_a_restart(table: Table):
    await started_game(table)
    alice, bob = table.players[0], table.players[1]
    post = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if "wh:open:1" in m.custom_ids())
    opened = await (await table.emu.click(bob, post, "wh:open:1")).wait(10)
    panel = day_panel = next(m for m in [opened.message, *opened.followups] if m and "wh:grail:1:1" in m.custom_ids())
    assert panel.ephemeral
    modal_opener = await table.emu.click(bob, panel, "wh:grail:1:1")
    await table.emu.wait_for(lambda: modal_opener.modal, timeout=5)
    text_id = modal_opener.modal["components"][0]["components"][0]["custom_id"]
    submitted = await (await table.emu.submit_modal(bob, modal_opener, {text_id: "77"})).wait(10)
    assert submitted.rejected == []
    view = await table.run(bob, "orders", dm=True)
    assert "77" in reply_text(view)
    # Morning, by the moderator; then the bot restarts and the old panel still works.
    await table.run(table.mod, "phase advance")
    await table.run(table.mod, "phase advance")
    await table.delivered()
    opened = await (await table.emu.click(alice, post, "wh:open:1")).wait(10)
    panel = next(m for m in [opened.message, *opened.followups] if m and "wh:vote:1:1" in m.custom_ids())
    await table.bot.close()
    from bot.db.session import Database
    from bot.discord.client import WolfBot

    fresh = WolfBot(table.bot.config, db=Database(table.bot.config.database_url, clock=table.clock))
    task = await start_bot(fresh, table.emu.token)
    table.bot = fresh
    try:
        voted = await (await table.emu.select(alice, panel, "wh:vote:1:1", ["2"])).wait(10)
        assert voted.rejected == []
        assert "bob" in reply_text(await table.run(alice, "orders", dm=True))
        # A stale panel (this morning's Day) is refused, never applied to another phase:
        # at once, without a form to type a number into first.
        late = await (await table.emu.click(bob, day_panel, "wh:grail:1:1")).wait(10)
        assert late.modal is None and "Too late" in reply_text(late)
    finally:
        task.cancel()


async def test_a_grail_form_opened_before_a_restart_is_taken_after_it(table: Table):
    """A deploy while someone types their number: the form was drawn by the old process,
    its answer reaches the new one."""
    from bot.db.session import Database
    from bot.discord.client import WolfBot

    game_id = await started_game(table)
    bob = table.players[1]
    post = next(m for m in table.emu.channel_messages(table.channel, include_ephemeral=False) if f"wh:open:{game_id}" in m.custom_ids())
    opened = await (await table.emu.click(bob, post, f"wh:open:{game_id}")).wait(10)
    panel = next(m for m in [opened.message, *opened.followups] if m and f"wh:grail:{game_id}:1" in m.custom_ids())
    opener = await table.emu.click(bob, panel, f"wh:grail:{game_id}:1")
    await table.emu.wait_for(lambda: opener.modal, timeout=5)
    field = opener.modal["components"][0]["components"][0]["custom_id"]
    await table.bot.close()
    fresh = WolfBot(table.bot.config, db=Database(table.bot.config.database_url, clock=table.clock))
    task = await start_bot(fresh, table.emu.token)
    table.bot = fresh
    try:
        sent = await (await table.emu.submit_modal(bob, opener, {field: "42"})).wait(10)
        assert sent.rejected == [] and sent.acknowledged
        assert "42" in reply_text(await table.run(bob, "orders", dm=True))
    finally:
        task.cancel()

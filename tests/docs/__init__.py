"""Tests that keep the documents true of the bot: guides, rules, the README's map."""

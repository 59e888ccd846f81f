"""Tests of discord_emulator, the local Discord, through a small plain discord.py bot; nothing of the game."""

"""The factions' colours: one palette for all the bot and its tools draw (the character
sheet's and /rules' embeds, the end-of-game chart, the simulator's plot and legends), so
a faction is the same colour wherever a player or a designer meets it."""

from __future__ import annotations

FACTIONS = ("lawful", "neutral", "chaotic")
FACTION_HEX = {"lawful": "#3B82F6", "neutral": "#9CA3AF", "chaotic": "#DC2626"}
# The same colours as Discord embed colours (integers).
FACTION_COLOUR = {f: int(colour[1:], 16) for f, colour in FACTION_HEX.items()}
# What marks a winner (the chart's outline and star).
WINNER_HEX = "#F59E0B"
# Anything else drawn beside the factions (totals, reference lines).
NEUTRAL_HEX = "#6B7280"

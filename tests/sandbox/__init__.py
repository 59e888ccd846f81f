"""Tests of the game on the local Discord: the scripted players' reading and the demo's line breaking."""

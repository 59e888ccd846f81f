"""Tests of the scenario tool (`wolfhowl scenario`)."""

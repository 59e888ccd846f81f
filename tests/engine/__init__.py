"""Tests of the pure rules engine."""

"""Whole games over the local Discord: restarts, leaks, hostile input, the monkey."""

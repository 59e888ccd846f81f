"""Recorded games replayed exactly: seed and submissions in, the same events out."""

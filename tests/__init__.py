"""The test suite: one folder per part (see the README's map)."""

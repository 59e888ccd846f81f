"""Tests that the benchmarks under bench/ run (not how fast)."""

"""Tests of the local Discord emulator and the scripted players."""

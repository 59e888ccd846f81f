"""Tests of the arrows between the packages."""

"""Tests of the use cases (the service layer) on both databases."""

"""Tests of each class's skills, one module per class."""

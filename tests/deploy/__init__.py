"""Tests of what an operator installs: the pinned packages, the image, a bot run as a process."""

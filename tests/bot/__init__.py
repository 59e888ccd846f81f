"""Tests of the Discord layer, rendering and catalogues, most of them over the local Discord."""

"""Tests of the models, repositories, sessions and migrations, on SQLite and PostgreSQL."""

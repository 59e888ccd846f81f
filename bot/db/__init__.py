"""Storage: SQLAlchemy models, the database handle, repositories and migrations."""

from bot.db.session import Database, make_engine, utcnow

__all__ = ["Database", "make_engine", "utcnow"]

# Wolf Howl Tavern bot: `docker build -t wolfhowl .` then
#   docker run -e WOLFHOWL_TOKEN=... -v wolfhowl-data:/app/var wolfhowl
# `docker ps` shows its health (`wolfhowl health`).
# It migrates the database and starts the bot, in one process. See docs/deploy.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MPLCONFIGDIR=/tmp/matplotlib

WORKDIR /app

# Dependencies first (a layer that changes only with pyproject.toml and the pins), at the
# versions constraints.txt pins (those CI tests), then the code.
COPY pyproject.toml README.md constraints.txt ./
RUN mkdir -p engine bot discord_emulator \
    && touch engine/__init__.py bot/__init__.py discord_emulator/__init__.py \
    && pip install -c constraints.txt . && pip uninstall -y wolfhowl && rm -rf engine bot discord_emulator build

COPY engine ./engine
COPY bot ./bot
# The local Discord that `wolfhowl demo` and `python -m bot.cli.external` serve.
COPY discord_emulator ./discord_emulator
COPY migrations ./migrations
COPY config.example.toml ./
# The wheel carries the migrations (bot/db/migrations links to migrations/); the source
# tree is not needed once it is installed.
RUN pip install --no-deps . && rm -rf build engine bot discord_emulator migrations *.egg-info \
    && groupadd --gid 10001 wolfhowl \
    && useradd --uid 10001 --gid 10001 --create-home --shell /usr/sbin/nologin wolfhowl \
    && mkdir -p /app/var && chown wolfhowl:wolfhowl /app/var

USER wolfhowl
# The SQLite database lives here, at an absolute path (whatever the working directory),
# unless WOLFHOWL_DATABASE_URL names PostgreSQL.
ENV WOLFHOWL_DATABASE_URL=sqlite+aiosqlite:////app/var/wolfhowl.sqlite3
VOLUME ["/app/var"]

# Healthy: connected to Discord within the last 2 minutes (the bot's heartbeat in the
# database), the database answering, no message due for over 5 minutes. One line.
HEALTHCHECK --interval=60s --timeout=20s --start-period=120s --retries=3 \
    CMD ["wolfhowl", "health"]

# One process, PID 1: it migrates the database at start, then connects. `docker stop`
# sends SIGTERM, which it handles from start-up on, migrations included.
CMD ["wolfhowl", "run"]

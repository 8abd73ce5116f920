# syntax=docker/dockerfile:1
# candybot: the Discord bot in a small image. Operators' guide, every step with its
# command: docs/discord.md, section 8. Needs BuildKit (the default builder since Docker 23)
# for the RUN --mount below. In short:
#   docker build -t candybot .
#   docker run --rm -e DISCORD_TOKEN=... -v candybot-data:/data candybot candybot check
#   docker exec candybot candybot backup /data/backup.db --force    # safe while it runs
#   docker stop candybot        # SIGTERM: moves in flight finish, then a clean exit 0
# tests/test_image.py installs what this file copies exactly as its RUN lines do, without
# a container engine: keep every Python step a `pip` line and every COPY a plain path.

# ---- stage 1: build the wheel (pyproject.toml alone says what ships)
FROM python:3.11-slim AS build
WORKDIR /src
# The versions tested together travel with the wheel to the runtime (pyproject.toml only
# bounds them).
COPY constraints.txt /wheels/constraints.txt
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY renderers ./renderers
COPY data ./data
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# ---- stage 2: the runtime, with the wheel and its dependencies and nothing of the build
FROM python:3.11-slim

LABEL org.opencontainers.image.title="candybot" \
      org.opencontainers.image.description="A Discord bot for candy-themed board games" \
      org.opencontainers.image.documentation="docs/discord.md" \
      candybot.volume="/data: the SQLite database /data/candybot.db and its WAL files" \
      candybot.backup="docker exec <container> candybot backup /data/backup.db --force" \
      candybot.check="docker exec <container> candybot check"

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CANDYBOT_DB=/data/candybot.db

# The wheel and the versions tested with it (constraints.txt) are mounted from the build
# stage, not copied, so no layer keeps them.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --constraint /wheels/constraints.txt /wheels/candybot-*.whl
RUN useradd --create-home --uid 10001 candy \
    && mkdir -p /data && chown candy:candy /data

USER candy
WORKDIR /home/candy
# The SQLite file (and its WAL) lives on a volume so games survive new images.
# Copy it with `candybot backup`, never with cp while the bot runs: a plain copy
# of a live WAL database can miss recent moves or be inconsistent.
VOLUME ["/data"]
# Prometheus metrics when CANDYBOT_METRICS_PORT is set (e.g. 9108); off otherwise.
EXPOSE 9108
# `candybot health` reads the status the running bot rewrites every 15 s beside the
# database (gateway, database writable, announcements waiting) and answers in one line.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["candybot", "health"]
# docker stop sends SIGTERM; the bot stops within CANDYBOT_STOP_SECONDS (8), under
# Docker's 10 s. Logs: one line per event on standard error (`docker logs`).
STOPSIGNAL SIGTERM
CMD ["candybot", "run"]

# candybot: the Discord bot in a small image. Build: docker build -t candybot .
# Check: docker run --rm -e DISCORD_TOKEN=... -v candybot-data:/data candybot candybot check
# Run:   docker run -d --name candybot -e DISCORD_TOKEN=... -v candybot-data:/data candybot
# Back up (safe while it runs; see docs/discord.md, "Backups"):
#        docker exec candybot candybot backup /data/backup.db --force
#        docker cp candybot:/data/backup.db ./candybot-$(date +%F).db
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

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY renderers ./renderers
COPY candybot_data ./candybot_data
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 candy \
    && mkdir -p /data && chown candy:candy /data

USER candy
# The SQLite file (and its WAL) lives on a volume so games survive new images.
# Copy it with `candybot backup`, never with cp while the bot runs: a plain copy
# of a live WAL database can miss recent moves or be inconsistent.
VOLUME ["/data"]
# Logs: one line per event on standard error (`docker logs`); CANDYBOT_LOG=debug for more.
CMD ["candybot", "run"]

# candybot: the Discord bot in a small image. Build: docker build -t candybot .
# Run:   docker run -d --name candybot -e DISCORD_TOKEN=... -v candybot-data:/data candybot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CANDYBOT_DB=/data/candybot.db

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY renderers ./renderers
COPY data ./data
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 candy \
    && mkdir -p /data && chown candy:candy /data

USER candy
# The SQLite file (and its WAL) lives on a volume so games survive new images.
VOLUME ["/data"]
CMD ["candybot", "run"]

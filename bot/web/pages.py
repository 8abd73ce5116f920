"""The web companion's pages, in words: HTML written here and nowhere else.

Every name and every sentence from below (narration, summaries, alt text) is escaped
where it is written (:func:`html.escape`), so a name reads as typed and injects nothing.
A page holds no inline script or style (the Content-Security-Policy allows neither): its
script and style are the files :mod:`bot.web.server` serves, and what the script needs
rides on ``data-`` attributes. Pages are readable without the script; with it, a game's
page follows the game and a replay steps without reloading.
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence
from typing import Any

from bot.organized.standings import said
from bot.tournaments import Standings as TournamentStandings
from bot.web.service import Board, GamePage, Line, Player, Replay, SeasonTable, Standings

#: The site's name, in every page's title.
SITE = "candybot"


def esc(text: object) -> str:
    """``text`` safe inside HTML text and quoted attributes."""
    return html.escape(str(text), quote=True)


def layout(root: str, title: str, body: str, *, data: str = "") -> str:
    """A whole page: ``title`` (escaped here), ``body`` (already HTML)."""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex, nofollow">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{esc(title)} · {SITE}</title>"
        f'<link rel="stylesheet" href="{esc(root)}/static/web.css">'
        f'<script src="{esc(root)}/static/web.js" defer></script>'
        f'</head><body{data}><main>{body}</main>'
        f"<footer><p>Read-only pages of games played with {SITE} on Discord: they show "
        "only what every spectator may see.</p></footer></body></html>\n")


def _when(unix: float) -> str:
    """A time as a ``<time>`` element: UTC in the page, the reader's own time once the
    script has run."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))
    shown = time.strftime("%d %b %Y, %H:%M UTC", time.gmtime(unix))
    return f'<time datetime="{stamp}">{shown}</time>'


def turn_line(page: GamePage) -> str:
    """Whose turn it is (or how the game ended), in plain words."""
    if page.status == "finished":
        return "Game over." + (f" {page.result}" if page.result else "")
    if page.status == "aborted":
        return "This game ended without a result."
    acting = [p.name for p in page.players if p.acting]
    if not acting:
        return "Waiting for the game to go on."
    names = acting[0] if len(acting) == 1 else ", ".join(acting[:-1]) + " and " + acting[-1]
    return f"Move {page.move}: waiting for {names}."


def _who(player: Player) -> str:
    return player.name + (" (AI)" if player.ai else "")


def _now(player: Player) -> str:
    """A player's place once the game is over, or whether they are to play."""
    if player.place is not None:
        return f"{player.place}."
    return "to play" if player.acting else ""


def _players(page: GamePage) -> str:
    rows = []
    for p in page.players:
        rows.append(f"<tr><td>{esc(_who(p))}</td><td>{p.score}</td>"
                    f"<td>{esc(_now(p))}</td></tr>")
    return ('<table class="players"><caption>Players</caption><thead><tr><th scope="col">'
            'Player</th><th scope="col">Score</th><th scope="col">Now</th></tr></thead>'
            f'<tbody id="players">{"".join(rows)}</tbody></table>')


def _lines(lines: Sequence[Line]) -> str:
    start = lines[0].n if lines else 1
    items = "".join(f"<li>{esc(line.text)}</li>" for line in lines)
    return f'<ol id="moves" start="{start}">{items}</ol>'


def game_page(root: str, page: GamePage) -> str:
    """``/g/<token>``: the board now, whose turn and since when, the players and scores,
    and the latest moves; it follows the game (see :func:`live`)."""
    base = f"{root}/g/{page.token}"
    since = (f'<p id="since">Their turn since {_when(page.since)}.</p>' if page.since
             else '<p id="since" hidden></p>')
    earlier = (f'<p>Moves {page.recent[0].n - 1} and earlier are in the '
               f'<a href="{esc(base)}/replay">replay</a>.</p>'
               if page.recent and page.recent[0].n > 1 else "")
    replay = (f'<p><a class="button" href="{esc(base)}/replay">Step through the game '
              "move by move</a></p>" if page.replayable else
              "<p>This game was played under older rules: it cannot be replayed here.</p>")
    body = (
        f"<h1>{esc(page.title)} <span class=\"sub\">game {page.game_id}</span></h1>"
        f'<p id="turn" class="turn" aria-live="polite">{esc(turn_line(page))}</p>{since}'
        f'<figure><img id="board" src="{esc(base)}/board.png?v={page.version}" '
        f'alt="{esc(page.alt)}"></figure>'
        f"{_players(page)}{replay}"
        f'<section aria-labelledby="moves-h"><h2 id="moves-h">Latest moves</h2>'
        f'{earlier}{_lines(page.recent)}</section>')
    data = (f' data-live="{esc(base)}/live" data-version="{page.version}"'
            if page.status == "active" else "")
    return layout(root, f"{page.title}, game {page.game_id}", body, data=data)


def live(root: str, page: GamePage) -> dict[str, Any]:
    """What a game's page fetches to follow the game: everything it shows, as data (the
    script writes it as text, never as HTML)."""
    base = f"{root}/g/{page.token}"
    return {
        "version": page.version, "status": page.status, "turn": turn_line(page),
        "since": page.since,
        "board": f"{base}/board.png?v={page.version}", "alt": page.alt,
        "players": [{"name": _who(p), "score": p.score, "now": _now(p)}
                    for p in page.players],
        "moves": [line.text for line in page.recent],
        "start": page.recent[0].n if page.recent else 1,
    }


def replay_page(root: str, replay: Replay, position: int) -> str:
    """``/g/<token>/replay?move=N``: the board after move ``N`` (0: the deal), its move
    in words, buttons, a slider and the arrow keys to step, and every move as a link."""
    page = replay.page
    base = f"{root}/g/{page.token}"
    last = len(replay.lines)
    position = max(0, min(last, position))
    told = replay.lines[position - 1].text if position else "The game begins: the deal."

    def step(label: str, to: int, key: str, name: str) -> str:
        to = max(0, min(last, to))
        off = ' aria-disabled="true"' if to == position else ""
        return (f'<a class="button" data-step="{key}" href="?move={to}"{off} '
                f'aria-label="{name}">{label}</a>')

    links = "".join(
        f'<li><a href="?move={line.n}"'
        f'{" aria-current=" + chr(34) + "step" + chr(34) if line.n == position else ""}>'
        f"{esc(line.short)}</a></li>" for line in replay.lines)
    body = (
        f'<h1>{esc(page.title)} <span class="sub">game {page.game_id}, replay</span></h1>'
        f'<p><a href="{esc(base)}">Back to the game</a></p>'
        f'<nav class="steps" aria-label="Step through the moves">'
        f'{step("«", 0, "first", "The deal")}{step("‹", position - 1, "back", "Move back")}'
        f'<span id="where" aria-live="polite">Move {position} of {last}</span>'
        f'{step("›", position + 1, "next", "Move forward")}{step("»", last, "last", "The end")}'
        "</nav>"
        f'<label class="slider">Move <input id="slider" type="range" min="0" max="{last}" '
        f'value="{position}"></label>'
        f'<figure><img id="board" src="{esc(base)}/move/{position}.png" '
        f'alt="{esc(replay.alts[position])}"><figcaption id="told">{esc(told)}</figcaption>'
        "</figure>"
        '<p class="hint">Keys: ← and → step, Home and End jump.</p>'
        f'<section aria-labelledby="all-h"><h2 id="all-h">Every move</h2>'
        f'<p><a href="?move=0">The deal</a></p><ol id="all">{links}</ol></section>')
    data = f' data-replay="{esc(base)}/move/" data-move="{position}" data-last="{last}"'
    return layout(root, f"{page.title}, game {page.game_id}: replay", body, data=data)


def step(replay: Replay, position: int) -> dict[str, Any]:
    """What the replay's script fetches for one position: its words and alt text."""
    told = replay.lines[position - 1].text if position else "The game begins: the deal."
    return {"move": position, "last": len(replay.lines), "told": told,
            "alt": replay.alts[position]}


def _board_table(board: Board, level: int, caption: str) -> str:
    """One game's ranks as a table under a heading of ``level``."""
    rows = "".join(
        f"<tr><td>{n}</td><td>{esc(name)}</td><td>{rating}{'?' if provisional else ''}"
        f"</td><td>{games}</td></tr>"
        for n, (name, rating, games, provisional) in enumerate(board.rows, start=1))
    return (f"<section><h{level}>{esc(board.title)}</h{level}><table><caption>"
            f"{esc(caption)}</caption><thead><tr><th scope=\"col\">Place</th>"
            "<th scope=\"col\">Player</th><th scope=\"col\">Rating</th><th scope=\"col\">"
            f"Rated games</th></tr></thead><tbody>{rows}</tbody></table></section>")


def _days(season: SeasonTable) -> str:
    """A season's first and last days, in UTC."""
    first = time.strftime("%d %b %Y", time.gmtime(season.starts_at))
    last = time.strftime("%d %b %Y", time.gmtime(max(season.starts_at, season.ends_at - 1)))
    return f"{first} to {last} (UTC)"


def _season(season: SeasonTable, final: bool) -> str:
    """A season's section: its name and days, then a table per game rated in it."""
    what = "final standings" if final else "under way"
    tables = "".join(_board_table(b, 3, f"{'Final standings' if final else 'Best ratings'} "
                                        f"in {b.title}, {season.name}")
                     for b in season.boards)
    return (f"<section><h2>Season {esc(season.name)}: {what}</h2><p>{_days(season)}; "
            f"games count in the season they end in, rated from its own ratings.</p>"
            f"{tables or '<p>No rated games in this season.</p>'}</section>")


def standings_page(root: str, standings: Standings) -> str:
    """``/s/<token>``: a server's leaderboards, one table per game played there; the
    season under way, and the final standings of the latest seasons over."""
    tables = [_board_table(b, 2, f"Best ratings in {b.title}") for b in standings.boards]
    body = ("<h1>Leaderboards</h1><p>The best ratings of this server's players, per game "
            "(40 × (mu − 3 sigma), as <code>/stats</code> shows them; ? marks a "
            "provisional rating: fewer than 5 rated games).</p>"
            + (_season(standings.season, False) if standings.season else "")
            + ("".join(tables) or "<p>Nobody has a rated game here yet.</p>")
            + "".join(_season(s, True) for s in standings.past))
    return layout(root, "Leaderboards", body)


#: How each tournament format reads on its page.
FORMATS = {"swiss": "Swiss", "round-robin": "Round-robin", "pods": "Pods"}
#: What a place at a table reads as.
PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def _entrant(name: str | None) -> str:
    return esc(name) if name else "a former player"


def tournament_page(root: str, standings: TournamentStandings) -> str:
    """``/t/<token>``: a tournament's standings, then each round's tables with their
    players' places."""
    record = standings.record
    names = {line.entry: line.name for line in standings.lines}
    state = {"signup": "signing up", "running": f"round {record.round} of {record.rounds}",
             "finished": "over", "cancelled": "called off"}.get(record.status, "")
    head = "Final standings" if standings.final else (
        f"Standings after round {standings.played}" if standings.played else "Standings")
    rows = "".join(
        f"<tr><td>{line.rank}</td><td>{_entrant(line.name)}"
        f"{' (withdrew)' if line.withdrawn else ''}</td><td>{esc(said(line.points))}</td>"
        f"<td>{esc(said(line.buchholz))}</td><td>{esc(said(line.sonneborn))}</td></tr>"
        for line in standings.lines)
    table = (f"<table><caption>{esc(head)}</caption><thead><tr>"
             "<th scope=\"col\">#</th><th scope=\"col\">Player</th>"
             "<th scope=\"col\">Points</th>"
             "<th scope=\"col\"><abbr title=\"Buchholz\">Buch.</abbr></th>"
             "<th scope=\"col\"><abbr title=\"Sonneborn-Berger\">S-B</abbr></th>"
             f"</tr></thead><tbody>{rows}</tbody></table>")
    rounds = []
    for number, seated in enumerate(standings.rounds, start=1):
        items = []
        for t in seated:
            if len(t.entries) == 1:
                items.append(f"<li>Bye: {_entrant(names.get(t.entries[0]))} (a win)</li>")
                continue
            who = ", ".join(
                _entrant(names.get(e)) + (f" ({PLACES[t.places[e] - 1]})"
                                          if t.places is not None and e in t.places
                                          and t.places[e] <= len(PLACES) else "")
                for e in t.entries)
            playing = "" if t.places is not None else " (playing)"
            items.append(f"<li>Table {t.number}: {who}{playing}</li>")
        rounds.append(f"<section><h2>Round {number}</h2><ul>{''.join(items)}</ul></section>")
    seats = "two a table" if record.seats == 2 else f"tables of {record.seats}"
    body = (f"<h1>{esc(standings.title)} tournament #{record.id}</h1>"
            f"<p>{FORMATS.get(record.format, esc(record.format))}, {seats}: {esc(state)}. "
            "Points: a table gives 1 to its first down to 0 for its last, ties sharing; "
            "a bye counts as a win. Ties are broken by Buchholz (the opponents' points), "
            "then Sonneborn-Berger (the opponents' points weighed by the score against "
            f"them).</p>{table}{''.join(rounds)}")
    return layout(root, f"{standings.title} tournament", body)


def not_found_page(root: str, what: str = "page") -> str:
    """The answer to a link that names nothing (never given, revoked, deleted)."""
    body = (f"<h1>No such {esc(what)}</h1><p>This link shows nothing: it was never given, "
            "or what it showed was deleted, or the server turned its web links off.</p>")
    return layout(root, f"No such {what}", body)


def busy_page(root: str, seconds: int) -> str:
    """The answer when too many pictures or replays are being drawn at once."""
    body = (f"<h1>Busy</h1><p>Many people are looking at games right now. Try again in "
            f"{seconds} seconds.</p>")
    return layout(root, "Busy", body)


def home_page(root: str) -> str:
    """``/``: what this site is (it lists nothing: every page is reached by its link)."""
    body = (f"<h1>{SITE}</h1><p>Pages of games played with {SITE} on Discord. Each game "
            "and each server has a link of its own, given in Discord; nothing is listed "
            "here.</p>")
    return layout(root, "Games on the web", body)

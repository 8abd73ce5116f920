"""A person's tournament entries, read and forgotten inside a caller's transaction: for
``/privacy`` (:meth:`bot.store.people.People.about`, :meth:`bot.store.people.People.forget`) and the
tournament aggregate (:mod:`bot.store.tournaments`) alike."""

from __future__ import annotations

from typing import Any

from bot.store.connection import Connection


async def entries_of(db: Connection, user_id: int) -> list[dict[str, Any]]:
    """The tournament entries kept about ``user_id`` (read on ``db``)."""
    rows = await db.execute_fetchall(
        "SELECT t.id, t.game, t.status, p.entry, p.name, p.withdrawn, p.joined_at "
        "FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id "
        "WHERE p.user_id = ? ORDER BY t.id", (user_id,))
    return [{"tournament": int(t), "game": str(g), "status": str(s), "entry": int(e),
             "name": str(n), "withdrawn": w, "joined_at": j}
            for t, g, s, e, n, w, j in rows]


async def forget_entries(db: Connection, user_id: int) -> dict[str, int]:
    """Delete ``user_id`` from every tournament, inside the caller's transaction: off the
    list of those signing up; in those under way (withdrawn from the next rounds) and
    ended, their entry stays with no user and no name, for the others' standings need its
    results. How many of each."""
    cursor = await db.execute(
        "DELETE FROM tournament_players WHERE user_id = ? AND tournament_id IN "
        "(SELECT id FROM tournaments WHERE status = 'signup')", (user_id,))
    removed = max(0, cursor.rowcount)
    cursor = await db.execute(
        "UPDATE tournament_players SET user_id = NULL, name = '', "
        "withdrawn = COALESCE(withdrawn, (SELECT round FROM tournaments t "
        "WHERE t.id = tournament_id AND t.status = 'running')) WHERE user_id = ?",
        (user_id,))
    return {"tournament_signups": removed, "tournament_entries": max(0, cursor.rowcount)}

"""The offline Discord's copy of Discord's rules for threads (tools/offline.py), each as
Discord's docs state it: locked threads (Threads, "Locked Threads"; Modify Channel's
thread parameters), the server's cap on active threads (160006), deleting a thread
(Manage Threads), and what a server announces on connecting (active threads only)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tools.offline import (
    GUILD_ID,
    INVITED,
    MANAGE_THREADS,
    MAX_ACTIVE_THREADS,
    MISSING_PERMISSIONS,
    PUBLIC_THREAD,
    THREAD_ARCHIVED,
    THREAD_LOCKED,
    UNKNOWN_CHANNEL,
    Channel,
    Recorder,
)

PARENT, THREAD = 700000000000000009, 700000000000000010
API = "https://discord.com/api/v10"


def discord_with_a_thread(permissions: int = INVITED, **thread: Any) -> Recorder:
    rec = Recorder()
    rec.room(PARENT).permissions = permissions
    rec.rooms[THREAD] = Channel(THREAD, PUBLIC_THREAD, GUILD_ID, PARENT, **thread)
    return rec


def ask(rec: Recorder, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return rec._handle("http", method, API + path, body, None)


def refused(rec: Recorder, method: str, path: str,
            body: dict[str, Any] | None = None) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as caught:
        ask(rec, method, path, body)
    return caught.value


def test_a_locked_thread_refuses_new_messages_and_edits_as_locked() -> None:
    rec = discord_with_a_thread(locked=True)
    said = refused(rec, "POST", f"/channels/{THREAD}/messages", {"content": "hi"})
    assert (said.status, said.code) == (400, THREAD_LOCKED)
    rec.rooms[THREAD].locked = False
    message = ask(rec, "POST", f"/channels/{THREAD}/messages", {"content": "hi"})
    rec.rooms[THREAD].locked = True
    said = refused(rec, "PATCH", f"/channels/{THREAD}/messages/{message['id']}",
                   {"content": "edited"})
    assert (said.status, said.code) == (400, THREAD_LOCKED)


def test_a_locked_and_archived_thread_is_not_reopened_by_a_post_or_without_manage_threads(
        ) -> None:
    rec = discord_with_a_thread(locked=True, archived=True)
    said = refused(rec, "POST", f"/channels/{THREAD}/messages", {"content": "hi"})
    assert said.code == THREAD_LOCKED and rec.rooms[THREAD].archived
    said = refused(rec, "PATCH", f"/channels/{THREAD}", {"archived": False})
    assert (said.status, said.code) == (403, MISSING_PERMISSIONS)
    assert rec.rooms[THREAD].archived
    # Manage Threads may: a moderator's bot could.
    rec.room(PARENT).permissions = INVITED | MANAGE_THREADS
    ask(rec, "PATCH", f"/channels/{THREAD}", {"archived": False})
    assert not rec.rooms[THREAD].archived


def test_an_archived_thread_that_is_not_locked_is_reopened_by_a_post_or_by_its_creator(
        ) -> None:
    rec = discord_with_a_thread(archived=True)
    ask(rec, "POST", f"/channels/{THREAD}/messages", {"content": "hi"})
    assert not rec.rooms[THREAD].archived
    rec.rooms[THREAD].archived = True
    ask(rec, "PATCH", f"/channels/{THREAD}", {"archived": False})
    assert not rec.rooms[THREAD].archived


def test_only_manage_threads_locks_unlocks_or_deletes_a_thread() -> None:
    rec = discord_with_a_thread()
    for change in ({"locked": True}, {"archived": True, "locked": True}):
        assert refused(rec, "PATCH", f"/channels/{THREAD}", change).code == \
            MISSING_PERMISSIONS
    assert refused(rec, "DELETE", f"/channels/{THREAD}").code == MISSING_PERMISSIONS
    assert THREAD in rec.rooms
    # Archiving its own thread needs no more than the bot has; changing an archived
    # thread without reopening it does nothing but refuse.
    ask(rec, "PATCH", f"/channels/{THREAD}", {"archived": True, "locked": False})
    assert rec.rooms[THREAD].archived
    assert refused(rec, "PATCH", f"/channels/{THREAD}", {"archived": True}).code == \
        THREAD_ARCHIVED
    rec.room(PARENT).permissions = INVITED | MANAGE_THREADS
    ask(rec, "DELETE", f"/channels/{THREAD}")
    assert refused(rec, "GET", f"/channels/{THREAD}").code == UNKNOWN_CHANNEL


def test_the_servers_cap_on_active_threads_refuses_a_new_thread_and_a_reopened_one() -> None:
    rec = discord_with_a_thread(archived=True)
    rec.max_active_threads = 1
    rec.rooms[THREAD + 1] = Channel(THREAD + 1, PUBLIC_THREAD, GUILD_ID, PARENT)
    said = refused(rec, "PATCH", f"/channels/{THREAD}", {"archived": False})
    assert (said.status, said.code) == (400, MAX_ACTIVE_THREADS)
    card = ask(rec, "POST", f"/channels/{PARENT}/messages", {"content": "card"})
    assert refused(rec, "POST", f"/channels/{PARENT}/messages/{card['id']}/threads",
                   {"name": "game"}).code == MAX_ACTIVE_THREADS
    rec.rooms[THREAD + 1].archived = True  # one thread went quiet: room for another
    ask(rec, "PATCH", f"/channels/{THREAD}", {"archived": False})
    assert not rec.rooms[THREAD].archived

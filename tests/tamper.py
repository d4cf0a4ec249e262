"""Edit the event store behind the service's back, as an attacker with database access would."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any
from uuid import UUID

import psycopg

from api.settings import SQLITE_FILENAME, Settings


def _execute(settings: Settings, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if settings.database_url is None:
        with sqlite3.connect(settings.data_dir / SQLITE_FILENAME) as conn:
            rows = conn.execute(sql.replace("%s", "?"), params).fetchall()
            conn.commit()
            return rows
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        cursor = conn.execute(sql.replace("stored_events", "chronicle_events"), params)
        return cursor.fetchall() if cursor.description else []


def _key(settings: Settings, roll_id: str) -> Any:
    return UUID(roll_id).hex if settings.database_url is None else UUID(roll_id)


def _state(settings: Settings, roll_id: str) -> dict[str, Any]:
    [(state,)] = _execute(
        settings,
        "SELECT state FROM stored_events WHERE originator_id = %s AND originator_version = 1",
        (_key(settings, roll_id),),
    )
    return json.loads(bytes(state))  # type: ignore[no-any-return]


def _write(settings: Settings, roll_id: str, state: dict[str, Any]) -> None:
    _execute(
        settings,
        "UPDATE stored_events SET state = %s WHERE originator_id = %s AND originator_version = 1",
        (json.dumps(state).encode(), _key(settings, roll_id)),
    )


def edit_record(settings: Settings, roll_id: str, change: Callable[[dict[str, Any]], None]) -> None:
    state = _state(settings, roll_id)
    change(state["record"])
    _write(settings, roll_id, state)


def edit_state(settings: Settings, roll_id: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the stored Roll.Recorded event beside its record (score, success, odds)."""
    state = _state(settings, roll_id)
    change(state)
    _write(settings, roll_id, state)


def delete_roll(settings: Settings, roll_id: str) -> None:
    _execute(
        settings, "DELETE FROM stored_events WHERE originator_id = %s", (_key(settings, roll_id),)
    )


def swap_rolls(settings: Settings, first: str, second: str) -> None:
    a, b = _state(settings, first), _state(settings, second)
    _write(settings, first, b)
    _write(settings, second, a)

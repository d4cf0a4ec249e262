"""A rebuild from the whole log gives exactly the views that were kept up to date event by event; it
is built beside the live views, which answer until it switches to the new ones in one transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.main import create_app
from api.settings import Settings
from projections.rebuild import rebuild
from projections.runner import open_view_store, views_env
from tests.cli import chronicle
from tests.client import TestClient
from tests.projections.support import (
    assert_same_views,
    caught_up,
    dump_of,
    event_store_positions,
    play,
    view_log_positions,
)


def test_a_rebuild_gives_every_view_table_row_for_row_as_the_running_views(
    settings: Settings,
) -> None:
    with TestClient(create_app(settings)) as client:
        played = play(client)
        incremental = caught_up(client, played.last)
    assert all(incremental.values()), "every view table has rows"
    assert rebuild(settings.eventsourcing_env()) == played.last
    assert_same_views(dump_of(settings.eventsourcing_env()), incremental)


def test_a_rebuild_while_the_api_serves_from_external_views_answers_the_same_history(
    settings: Settings,
) -> None:
    with TestClient(create_app(settings)) as client:
        played = play(client)
        caught_up(client, played.last)
        replay = played.table.get(f"/v1/scenes/{played.scene}/replay")
    external = settings.model_copy(update={"projections": "external"})
    with TestClient(create_app(external)) as client:
        rebuild(external.eventsourcing_env())
        assert (
            client.get(
                f"/v1/scenes/{played.scene}/replay",
                headers={"Authorization": f"Bearer {played.table.gm}"},
            ).json()
            == replay
        )


def _forget_live_replay(env: Mapping[str, str], scene_id: str) -> None:
    """Make the live views differ from what a rebuild gives (as before a fix to a translation):
    the scene's steps are gone from them."""
    store = open_view_store(views_env(env))
    with store._tx(commit=True) as cursor:  # the views have no write path but the runner's
        cursor.execute(store._sql("DELETE FROM view_timeline WHERE scene_id = %s"), (scene_id,))
    store.datastore.close()  # type: ignore[attr-defined]


def _view_tables(env: Mapping[str, str]) -> set[str]:
    store = open_view_store(views_env(env))
    try:
        names = "name FROM sqlite_master WHERE type = 'table'"
        if env["PERSISTENCE_MODULE"].endswith("postgres"):
            names = "tablename AS name FROM pg_tables WHERE schemaname = 'public'"
        return {r["name"] for r in store._rows(f"SELECT {names}") if "view_" in r["name"]}
    finally:
        store.datastore.close()  # type: ignore[attr-defined]


def test_a_reader_sees_the_live_views_while_a_rebuild_runs_and_the_rebuilt_ones_after_it(
    settings: Settings,
) -> None:
    env = settings.eventsourcing_env()
    with TestClient(create_app(settings)) as client:
        played = play(client)
        table, scene = played.table, played.scene
        open_scene = table.scene()
        caught_up(client, table.position())
        replay = table.get(f"/v1/scenes/{scene}/replay")
        assert replay["steps"], "the scene has a story to tell"
        _forget_live_replay(env, scene)
        during: list[Any] = []

        def progress(position: int, head: int) -> None:
            if position and not during:  # a first page is in the new tables, not yet live
                during.append(table.get(f"/v1/scenes/{scene}/replay")["steps"])
                during.append(table.post(f"/v1/scenes/{open_scene}/pages", status=200))

        switched_at = rebuild(env, progress=progress, page_size=10)
        assert during[0] == [], "the live views answer during the rebuild"
        assert table.get(f"/v1/scenes/{scene}/replay") == replay, "the rebuilt views answer"
        assert switched_at >= during[1]["position"], "what was written meanwhile is in them"
        after = table.post(f"/v1/scenes/{open_scene}/pages", status=200)
        caught_up(client, after["position"])
        steps = table.get(f"/v1/scenes/{open_scene}/replay")["steps"]
        assert [s["position"] for s in steps[-2:]] == [during[1]["position"], after["position"]], (
            "the live runner goes on in the rebuilt views"
        )
        running = caught_up(client, after["position"])
    assert _view_tables(env) == {"view_docs", "view_versions", "view_log", "view_timeline"}
    store = open_view_store(views_env(env))
    assert view_log_positions(store) == event_store_positions(env), "each event once"
    store.datastore.close()  # type: ignore[attr-defined]
    rebuild(env)
    assert_same_views(dump_of(env), running)


def test_a_second_rebuild_at_the_same_time_exits_4_and_leaves_the_first_alone(
    settings: Settings,
) -> None:
    env = settings.eventsourcing_env()
    with TestClient(create_app(settings)) as client:
        played = play(client)
        caught_up(client, played.last)
    flags = ["--data-dir", settings.data_dir]
    if settings.database_url:
        flags += ["--database-url", settings.database_url]
    beside = open_view_store(views_env(env), beside_live=True)
    try:
        with beside.rebuild_lock():
            refused = chronicle("projections", "rebuild", *flags)
    finally:
        beside.datastore.close()  # type: ignore[attr-defined]
    assert (refused.returncode, refused.stdout) == (4, "")
    assert "another rebuild" in refused.stderr
    done = chronicle("projections", "rebuild", *flags)
    assert done.returncode == 0, done.stderr
    assert f"up to log position {played.last} and switched" in done.stdout
    assert "rebuilding the views" in done.stderr  # the progress bar

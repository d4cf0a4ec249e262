"""A rebuild from the whole log gives exactly the views that were kept up to date event by event."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.main import create_app
from api.settings import Settings
from projections.rebuild import rebuild
from tests.projections.support import assert_same_views, caught_up, dump_of, play


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

"""The webhooks' outbox on each backend: an entry makes one delivery per wanted webhook, however
often it is enqueued (a rebuild of the views, a second worker, a lost cursor)."""

from __future__ import annotations

from api.main import create_app
from api.settings import Settings
from domain.application import Chronicle
from projections.rebuild import rebuild
from projections.runner import open_view_store, views_env
from projections.webhooks import Outbox, delivery_id
from tests.api.support import Table
from tests.client import TestClient


def test_an_entry_enqueued_again_makes_no_second_delivery(settings: Settings) -> None:
    # The API alone (no views runner, no dispatcher): the views are built by rebuilds below.
    external = settings.model_copy(update={"projections": "external"})
    with TestClient(create_app(external)) as client:
        table = Table(client)
        body = {"url": "http://127.0.0.1:9/hook", "types": ["Story.Started"]}
        hook = table.post(f"/v1/campaigns/{table.campaign_id}/webhooks", body)
        story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "The Heist"})
        env = views_env(external.eventsourcing_env())
        rebuild(external.eventsourcing_env())
        store = open_view_store(env)
        reader = Chronicle(env)  # what a receiver may see is read off the campaign
        outbox, again = Outbox(store, env, reader), Outbox(store, env, reader)
        try:
            assert outbox.enqueue() > 0
            first = outbox.deliveries(hook["id"], 0, 10)
            assert [(d["id"], d["position"], d["state"]) for d in first] == [
                (delivery_id(hook["id"], story["position"]), story["position"], "pending")
            ]
            rebuild(external.eventsourcing_env())  # the log's entries written again
            assert outbox.enqueue() == 0  # the cursor is past them
            with outbox._tx() as cursor:  # a cursor lost (or a second worker's, from 0)
                cursor.execute("DELETE FROM webhook_cursor")
            assert again.enqueue() > 0  # another dispatcher (or this one restarted)
            assert again.deliveries(hook["id"], 0, 10) == first
        finally:
            outbox.close()
            again.close()
            reader.close()
            store.datastore.close()  # type: ignore[attr-defined]


def test_entries_no_webhook_wants_move_the_cursor_without_a_commit_until_it_is_far_behind(
    settings: Settings,
) -> None:
    external = settings.model_copy(update={"projections": "external"})
    with TestClient(create_app(external)) as client:
        table = Table(client)  # no webhook anywhere
        table.story()
        env = views_env(external.eventsourcing_env())
        rebuild(external.eventsourcing_env())
        store = open_view_store(env)
        reader = Chronicle(env)
        outbox, restarted = Outbox(store, env, reader), Outbox(store, env, reader)
        try:
            read = outbox.enqueue()
            assert read > 0
            assert outbox._stored_cursor() == 0  # nothing delivered: nothing committed
            assert outbox.enqueue() == 0  # its own cursor is past them
            # After a restart the entries are read again, and still make nothing.
            assert restarted.enqueue() == read
            with restarted._tx(commit=False) as cursor:
                cursor.execute("SELECT COUNT(*) AS n FROM webhook_deliveries")
                assert cursor.fetchall()[0]["n"] == 0
            # Far enough behind (here: one entry), the stored cursor catches up.
            outbox.cursor_write_every = 1
            story = table.post(f"/v1/campaigns/{table.campaign_id}/stories", {"title": "Two"})
            rebuild(external.eventsourcing_env())
            assert outbox.enqueue() == 1
            assert outbox._stored_cursor() == story["position"]
        finally:
            outbox.close()
            restarted.close()
            reader.close()
            store.datastore.close()  # type: ignore[attr-defined]

"""`chronicle export`: a campaign's signed export straight from the store, as its GM would read it
over HTTP, with progress on standard error and its own exit codes; `chronicle verify` counts."""

from __future__ import annotations

import json
from pathlib import Path

from api.settings import Settings
from tests.api.support import Table, bearer
from tests.cli import chronicle
from tests.client import TestClient


def lines_of(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_the_export_from_the_store_is_the_gm_s_export_and_verifies(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    table = Table(client)
    scene = table.scene()
    table.post(f"/v1/scenes/{scene}/pages", status=200)
    over_http = client.get(f"/v1/campaigns/{table.campaign_id}/export", headers=bearer(table.gm))
    out = tmp_path / "campaign.jsonl"

    ran = chronicle("export", table.campaign_id, "--out", out, "--data-dir", settings.data_dir)

    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == ""  # the export went to the file, the progress to standard error
    assert "reading the log" in ran.stderr
    exported = lines_of(out.read_text())
    expected = lines_of(over_http.text)
    assert exported[:-1] == expected[:-1]  # the same entries; each trailer signs its own moment
    assert exported[-1]["type"] == expected[-1]["type"] == "ExportHead"
    assert f"{len(exported)} lines" in ran.stderr
    assert not (tmp_path / "campaign.jsonl.partial").exists()
    verified = chronicle("verify", out)
    assert verified.returncode == 0, verified.stdout
    assert "reading the export" in verified.stderr
    assert "reading the export" not in chronicle("verify", out, "--quiet").stderr


def test_the_export_goes_to_standard_output_without_a_file(
    client: TestClient, settings: Settings
) -> None:
    table = Table(client)
    ran = chronicle("export", table.campaign_id, "--quiet", "--data-dir", settings.data_dir)
    assert ran.returncode == 0, ran.stderr
    assert lines_of(ran.stdout)[0]["type"] == "Campaign.Created"
    assert "reading the log" not in ran.stderr


def test_an_unknown_campaign_exits_4_and_writes_nothing(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    Table(client)
    out = tmp_path / "none.jsonl"
    nobody = "00000000-0000-4000-8000-000000000000"
    ran = chronicle("export", nobody, "--out", out, "--data-dir", settings.data_dir)
    assert ran.returncode == 4
    assert f"no campaign {nobody}" in ran.stderr
    assert not out.exists()


def test_an_export_without_a_store_exits_5(tmp_path: Path) -> None:
    nobody = "00000000-0000-4000-8000-000000000000"
    ran = chronicle("export", nobody, "--data-dir", tmp_path / "empty")
    assert ran.returncode == 5
    assert "no store at" in ran.stderr
    assert not (tmp_path / "empty").exists()  # and none was made

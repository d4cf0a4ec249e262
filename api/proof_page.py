"""The public proof page of a roll (GET /proof/{roll_id}): the HTML the server renders, and the
data its script (proof_web/assets/proof.js) recomputes the faces from in the reader's browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from api.roll_text import plain, roll_text
from api.schemas import roll_public
from domain.aggregates import Campaign, Roll
from domain.proofs import PublicProof, proof_is_public

HERE = Path(__file__).parent / "proof_web"
ASSETS = HERE / "assets"
ASSETS_URL = "/proof/assets"  # where the script and the stylesheet are served (no CDN)
# The page runs its own script and style only, and sends nothing anywhere: a browser that honours
# the policy could not load a tampered script from elsewhere either.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

_templates = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
)


def proof_link(base_url: str, campaign: Campaign, roll: Roll) -> str:
    """Where a roll's proof is read: its public page when the public may see it, else the
    members' verification (which needs a token)."""
    if proof_is_public(campaign, roll):
        return f"{base_url}proof/{roll.id}"
    return f"{base_url}v1/rolls/{roll.id}/verification"


def render(proof: PublicProof, base_url: str) -> str:
    """The page, as served from `base_url` (its plain line ends with the page's own address)."""
    roll = proof.roll
    link = proof_link(base_url, proof.campaign, roll)
    line = roll_text(roll.record, roll.odds, proof.who, proof.what, link)
    return _templates.get_template("proof.html").render(
        roll=roll_public(roll, proof.scene),
        who=proof.who,
        what=proof.what,
        result=line.result,
        line=plain(line),
        campaign=proof.campaign.name,
        client_seed_by=proof.roll.record.get("client_seed_by"),
        odds=_odds(proof.roll.odds),
        faces=[_face(f) for f in proof.roll.record["faces"]],
        data=check_data(proof),
        assets=ASSETS_URL,
    )


def check_data(proof: PublicProof) -> dict[str, Any]:
    """What the script needs to recompute the faces (docs/fair-dice.md, section 6). The nonce is
    a string: a JSON number above 2^53 would lose digits in JavaScript."""
    record = proof.roll.record
    return {
        "commitment": record["commitment"],
        "client_seed": record["client_seed"],
        "nonce": str(record["nonce"]),
        # every epoch of the scene, so the script itself finds the one the record claims
        "epochs": [
            {"commitment": e.commitment, "seed": e.revealed_seed} for e in proof.scene.epochs
        ],
        "faces": [
            {"index": f["index"], "sides": f["sides"], "face": f["face"]} for f in record["faces"]
        ],
    }


def _odds(odds: dict[str, Any]) -> list[tuple[str, str]]:
    names = (("success", "chance of success"), ("at_least", "chance of this result or better"))
    return [(name, f"{odds[key]:.1%}") for key, name in names if odds.get(key) is not None]


def _face(face: dict[str, Any]) -> dict[str, Any]:
    """A face with what its mark means, in words."""
    marks = []
    if face.get("exploded_from") is not None:
        marks.append(f"exploded from #{face['exploded_from']}")
    if face.get("reroll_of") is not None:
        marks.append(f"reroll of #{face['reroll_of']}")
    marks.append("kept" if face["kept"] else "not counted")
    return {**face, "mark": ", ".join(marks)}

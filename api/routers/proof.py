"""Public proof pages: the GM's opt-in per campaign, and GET /proof/{roll_id} (HTML, no token)
with its script and stylesheet, served from the package (docs/front-ends.md, "Proof page")."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount

from api import proof_page
from api.command_routes import CommandRoutes, Op, application
from api.deps import AppDep
from api.errors import ERROR_RESPONSES
from api.openapi import text_body
from api.routing import OneHopRoute
from api.schemas import CampaignPublic, campaign_public
from domain.application import Chronicle
from domain.proofs import public_proof

router = APIRouter(route_class=OneHopRoute, tags=["proof pages"], responses=ERROR_RESPONSES)

routes = CommandRoutes(router, application)
routes.declare(
    Op(
        "/v1/campaigns/{campaign_id}/proof-pages",
        Chronicle.set_proof_pages,
        """The GM makes the campaign's rolls' proof pages public (`GET /proof/{roll_id}`, no
    token) or private again; recorded as `Campaign.ProofPagesSet`. Off in every new campaign.""",
        method="PUT",
        model=CampaignPublic,
        present=lambda outcome, _: campaign_public(outcome.aggregate),  # type: ignore[arg-type]
    )
)


@router.get(
    "/proof/{roll_id}",
    operation_id="get_proof_page",
    **text_body(
        "text/html",
        "The roll's proof page: who rolled what, the faces, the result, the odds and the "
        "commitment; once the seed is revealed its script recomputes the faces",
    ),
)
def get_proof_page(roll_id: str, request: Request, app: AppDep) -> HTMLResponse:
    """A roll's public proof page; needs no token. 404, always the same, unless the roll's
    campaign made its proof pages public."""
    page = proof_page.render(public_proof(app.repository, roll_id), str(request.base_url))
    return HTMLResponse(page, headers={"Content-Security-Policy": proof_page.POLICY})


router.routes.append(
    Mount(proof_page.ASSETS_URL, StaticFiles(directory=proof_page.ASSETS), name="proof-assets")
)

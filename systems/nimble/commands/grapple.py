"""Nimble: a grapple inside the running encounter (NB-24 with NB-7, NB-10, NB-15, NB-21).

A grapple is "an action and an attack (hasty-attack rules apply)" (NB-24). The health area's verb
(`nimble_grapple`, `POST /v1/characters/{id}/nimble/grapples`) knows nothing of the encounter: the
client spends the action and passes `attack_number` itself. This verb does both inside the scene's
running encounter: it checks the turn, spends 1 action of a hero (a monster group has no action
count, as for its attacks), takes `attack_number` from the attacks made this turn, rolls through
the health area's `grapple` (conditions, attack edge, a Dying grappler's STR save) and
records the `acted` change as a hasty attack, so the next attack or save ability of the turn is
hastier (NB-10). See systems/nimble/docs/encounters.md.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.aggregates import Roll
from domain.commands import CommandContext, Outcome, command
from domain.components import Turn
from systems.nimble.commands.area import Area
from systems.nimble.commands.encounter import state_of
from systems.nimble.commands.health import Grab
from systems.nimble.requests import NimbleEncounterGrappleCreate
from systems.nimble.rules import encounter as enc


class EncounterGrapple(Area):
    """The grapple of the encounter, an area of the Nimble component: it uses the encounter's
    and the health area's helpers (`self.system.encounter`, `self.system.health`)."""

    @command
    def nimble_encounter_grapple(
        self, ctx: CommandContext, scene_id: UUID, body: NimbleEncounterGrappleCreate
    ) -> Outcome:
        """NB-24 in the encounter: on the grappler's own turn, 1 action (NB-7; heroes) and an
        attack (NB-10: `attack_number` = attacks this turn + 1); a Might or Finesse check DC 10
        against a creature of the encounter. A Dying grappler first makes its STR save (NB-21);
        if the save kills it the action is spent and nothing is grappled. Refused while a held
        attack waits for its reactions (NB-15)."""
        encounter = self.system.encounter
        turn = encounter._turn(ctx, scene_id)
        grab = self._ready(turn, body)
        outcome, touched, roll = self.system.health.grapple(grab)
        outcome = {
            **outcome,
            "grappler_id": str(grab.grappler.id),
            "target_id": str(grab.target.id),
            "attack_number": grab.attack_number,
            "hasty_steps": grab.attack_number - 1,
        }
        self._acted(turn, grab, roll, outcome)
        return encounter._nbe_save(turn, touched, roll, **outcome)

    def _ready(self, turn: Turn, body: NimbleEncounterGrappleCreate) -> Grab:
        """The grappler on its turn with an action for it (NB-4, NB-7, NB-15), a target of the
        encounter, both standing; and which attack of the turn it is (NB-10)."""
        encounter = self.system.encounter
        state = state_of(turn.scene)
        grappler, sheet = encounter._acting(turn, state, body.grappler_id, "grappler_id")
        target, _ = encounter._creature(turn, body.target_id, "target_id")
        enc.check_in(state, str(target.id), target.name, "target_id")
        enc.check_not_pending(state)  # NB-15: a held attack is settled first
        who, name = str(grappler.id), grappler.name
        enc.check_standing(grappler.name, grappler.status, "grappler_id")
        enc.check_standing(target.name, target.status, "target_id")
        state = encounter._nbe_cap(turn.scene, grappler)  # NB-21: a Dying hero: at most 1 action
        enc.check_spend(state, who, name, 1, reaction=None)  # NB-4/NB-15 its turn; NB-7 1 action
        encounter.check_members(state, (grappler, sheet))  # a group: one per member left
        attack_number = enc.hasty_steps(state, who) + 1  # NB-10: a hero's rule
        return Grab(
            turn.actor,
            turn.scene,
            turn.campaign,
            grappler,
            target,
            turn.loaded,
            body,
            attack_number,
            "grappler_id",
        )

    def _acted(self, turn: Turn, grab: Grab, roll: Roll | None, outcome: dict[str, Any]) -> None:
        """The grapple's action, as a hasty attack (NB-10/NB-24); if the Dying save's Wound
        killed the grappler (NB-21 ruling, as for an attack) the action is spent, nothing held."""
        encounter, who = self.system.encounter, str(grab.grappler.id)
        roll_id, target_id = str(roll.id) if roll else None, str(grab.target.id)
        dying = outcome.get("dying_save")
        died = dying is not None and dying["dead"]
        details: dict[str, Any] = {"roll_id": roll_id, "target_id": target_id}
        if died:
            details |= {"grappled": False, "dying_save": dying, "died": True}
        else:  # NB-10/NB-24: a grapple is an attack
            details = {"hasty": True, **details, "grappled": bool(outcome["grappled"])}
            details["condition"] = outcome["condition"]
        encounter._nbe_act(turn.scene, who, "grapple", 1, **details)
        if died:
            encounter._nbe_cap(turn.scene, grab.grappler)

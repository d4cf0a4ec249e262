"""Scene: one location, event or task inside a running game Issue, played page by page (WCBH-1).

The scene is also the dice epoch: its secret seed is committed when it opens, its rolls take consecutive
nonces, and the seed is revealed when it closes or when the GM rotates it (docs/fair-dice.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.aggregates._checks import check_change, clean_title
from domain.errors import Conflict, InvalidInput
from domain.rulesets import get_ruleset
from domain.rulesets.base import SceneState


@dataclass
class SeedEpoch:
    """One seed of a scene: its commitment, the seed once revealed, and the rolls made with it."""

    number: int
    commitment: str
    sealed_seed: str | None  # the secret seed, sealed with the server key, until revealed
    revealed_seed: str | None = None  # hex, once revealed
    rolls: int = 0


class Scene(Aggregate):
    @event("Opened")
    def __init__(
        self,
        campaign_id: UUID,
        story_id: UUID,
        issue_id: UUID,
        title: str,
        seed_commitment: str,
        sealed_seed: str,
    ) -> None:
        self.campaign_id = campaign_id
        self.story_id = story_id
        self.issue_id = issue_id
        self.title = title
        self.page = 1
        self.closed = False
        self.epochs = [SeedEpoch(0, seed_commitment, sealed_seed)]
        self.uses: dict[str, list[UUID]] = {}  # once-per-scene uses: key → characters
        self.page_attacks: list[tuple[UUID, UUID]] = []  # (attacker, target) in the current page
        self.affected: list[
            UUID
        ] = []  # characters attacked here: their effects tick with the pages
        self.combatants: list[UUID] = []  # who takes part in the fight (order of action, WCBH-22)
        self.acting_first: list[UUID] = []  # who spent Resolve to act first (WCBH-24)
        # Each game system's own state on the scene, by area (its Ruleset.scene_states).
        self.states: dict[str, dict[str, Any]] = {}
        self._init_resolve_area()

    @classmethod
    def open(
        cls,
        campaign_id: UUID,
        story_id: UUID,
        issue_id: UUID,
        title: str,
        seed_commitment: str,
        sealed_seed: str,
    ) -> Scene:
        return cls(
            campaign_id=campaign_id,
            story_id=story_id,
            issue_id=issue_id,
            title=clean_title(title, "title"),
            seed_commitment=seed_commitment,
            sealed_seed=sealed_seed,
        )

    @property
    def status(self) -> str:
        return "closed" if self.closed else "open"

    @property
    def epoch(self) -> SeedEpoch:
        return self.epochs[-1]

    def advance_page(self) -> None:
        """Start the next page (a round, in systems that say round)."""
        self._check_open()
        self._page_advanced(self.page + 1)

    @event("PageAdvanced")
    def _page_advanced(self, page: int) -> None:
        self.page = page
        self.page_attacks = []

    def record_attack(self, attacker_id: UUID, target_id: UUID) -> None:
        """WCBH-25: the same target cannot be attacked twice by one character in one page."""
        self._check_open()
        if (attacker_id, target_id) in self.page_attacks:
            raise Conflict(
                "this character has already attacked that target in this page",
                code="target_already_attacked",
                rule="WCBH-25",
                details={"page": self.page},
            )
        self._attacked(attacker_id, target_id, self.page)

    @event("AttackMade")
    def _attacked(self, attacker_id: UUID, target_id: UUID, page: int) -> None:
        self.page_attacks.append((attacker_id, target_id))
        if target_id not in self.affected:
            self.affected.append(target_id)

    def take_nonce(self, roll_id: UUID) -> tuple[int, SeedEpoch]:
        """The next nonce of the current seed; a roll needs an open scene."""
        if self.closed:
            raise Conflict("the scene is closed: no more rolls in it", code="scene_closed")
        nonce = self.epoch.rolls
        self._roll_made(roll_id, self.epoch.number, nonce)
        return nonce, self.epoch

    @event("RollMade")
    def _roll_made(self, roll_id: UUID, epoch: int, nonce: int) -> None:
        self.epochs[epoch].rolls = nonce + 1

    def use_once(self, key: str, character_id: UUID, rule: str, *, exclusive: bool) -> None:
        """A use limited per scene: once per character, or (exclusive) one character per scene."""
        users = self.uses.get(key, [])
        if character_id in users or (exclusive and users):
            raise Conflict(
                f"the {key.replace('_', ' ')} of this scene is already used",
                code="once_per_scene",
                rule=rule,
                details={"use": key, "used_by": [str(u) for u in users]},
            )
        self._used_once(key, character_id)

    @event("OnceUsed")
    def _used_once(self, key: str, character_id: UUID) -> None:
        self.uses.setdefault(key, []).append(character_id)

    def join_fight(self, character_ids: list[UUID]) -> None:
        """Characters join the fight of this scene (the order of action covers them, WCBH-22)."""
        self._check_open()
        new = [c for c in dict.fromkeys(character_ids) if c not in self.combatants]
        if new:
            self._combatants_joined(new)

    @event("CombatantsJoined")
    def _combatants_joined(self, character_ids: list[UUID]) -> None:
        self.combatants.extend(character_ids)

    def act_first(self, character_id: UUID) -> None:
        """WCBH-24: from now on the character acts first every page (its Resolve is spent with it)."""
        self._check_open()
        if character_id not in self.combatants:
            raise InvalidInput(
                "only a character in the fight can act first; add it to the combatants",
                field="character_id",
                rule="WCBH-24",
            )
        if character_id in self.acting_first:
            raise Conflict(
                "the character already acts first in this scene", code="acts_first", rule="WCBH-24"
            )
        self._acted_first(character_id)

    @event("ActsFirst")
    def _acted_first(self, character_id: UUID) -> None:
        self.acting_first.append(character_id)

    def rotate_seed(self, revealed_seed: str, new_commitment: str, new_sealed_seed: str) -> None:
        """Reveal the current seed and commit to a new one (the GM may do this mid-scene)."""
        self._check_open()
        self._seed_rotated(revealed_seed, new_commitment, new_sealed_seed)

    @event("SeedRotated")
    def _seed_rotated(self, revealed_seed: str, new_commitment: str, new_sealed_seed: str) -> None:
        self._reveal(revealed_seed)
        self.epochs.append(SeedEpoch(len(self.epochs), new_commitment, new_sealed_seed))

    def close(self, revealed_seed: str) -> None:
        self._check_open()
        self._closed(revealed_seed)

    @event("Closed")
    def _closed(self, revealed_seed: str) -> None:
        self.closed = True
        self._reveal(revealed_seed)

    def _reveal(self, revealed_seed: str) -> None:
        self.epoch.revealed_seed = revealed_seed
        self.epoch.sealed_seed = None

    def _check_open(self) -> None:
        if self.closed:
            raise Conflict("the scene is closed", code="scene_closed")

    # ---- WCBH scene play, recorded before StateChanged ----------------------------------------
    # Group checks, contests and chases (WCBH-11, 12, 27) are the "play" state of the wcbh system
    # (systems/wcbh/rules/play_state.py); older logs hold these events, applied the same way.

    @event("GroupCheckOpened")
    def _group_check_opened(
        self, group_id: UUID, participants: list[str], difficulty: int, purpose: str, page: int
    ) -> None:
        details = {"group_id": group_id, "participants": participants}
        self._old_play("GroupCheckOpened", page, details, difficulty=difficulty, purpose=purpose)

    @event("GroupCheckRolled")
    def _group_rolled(
        self, group_id: UUID, character_id: UUID, roll_id: UUID, successes: int
    ) -> None:
        details = {"group_id": group_id, "character_id": character_id, "roll_id": roll_id}
        self._old_play("GroupCheckRolled", self.page, details, successes=successes)

    @event("SuccessesHandedOver")
    def _successes_handed_over(
        self, group_id: UUID, giver_id: UUID, receiver_id: UUID, successes: int
    ) -> None:
        details = {"group_id": group_id, "giver_id": giver_id, "receiver_id": receiver_id}
        self._old_play("SuccessesHandedOver", self.page, details, successes=successes)

    @event("ContestStarted")
    def _contest_started(
        self,
        contest_id: UUID,
        first_id: UUID,
        second_id: UUID,
        rolls: int,
        purpose: str,
        page: int,
    ) -> None:
        details = {"contest_id": contest_id, "first_id": first_id, "second_id": second_id}
        self._old_play("ContestStarted", page, details, rolls=rolls, purpose=purpose)

    @event("ContestRolled")
    def _contest_rolled(
        self,
        contest_id: UUID,
        character_id: UUID,
        roll_id: UUID,
        successes: int,
        bonus: int,
        decided: bool,
        winner: str | None,
    ) -> None:
        details = {"contest_id": contest_id, "character_id": character_id, "roll_id": roll_id}
        result = {"successes": successes, "bonus": bonus, "decided": decided, "winner": winner}
        self._old_play("ContestRolled", self.page, details, **result)

    @event("ChaseStarted")
    def _chase_started(
        self, chase_id: UUID, pairs: list[dict[str, str]], distance: str, page: int
    ) -> None:
        self._old_play(
            "ChaseStarted", page, {"chase_id": chase_id, "pairs": pairs}, distance=distance
        )

    @event("ChaseChecked")
    def _chase_checked(
        self,
        chase_id: UUID,
        character_id: UUID,
        roll_id: UUID,
        successes: int,
        bonus: int,
        shift: int | None,
        page: int,
        results: list[dict[str, Any]],
    ) -> None:
        details = {"chase_id": chase_id, "character_id": character_id, "roll_id": roll_id}
        check = {"successes": successes, "bonus": bonus, "shift": shift, "results": results}
        self._old_play("ChaseChecked", page, details, **check)

    def _old_play(self, change: str, page: int, ids: dict[str, Any], **rest: Any) -> None:
        self._apply_state(WCBH, "play", change, {**ids, **rest}, page)

    # ---- Resolve area (WCBH-20f, WCBH-21; systems/wcbh/commands/resolve.py) ----------------------------

    def _init_resolve_area(self) -> None:
        # WCBH-21: the scene's own pools (Adversity), apart from its game Issue's.
        self.pools: dict[str, int] = {}
        # WCBH-20f: Powers imitated for this scene: {"character_id", "trait", "power", "rank"...}.
        self.imitations: list[dict[str, Any]] = []

    def open_pool(self, pool: str, amount: int, reason: str) -> None:
        """WCBH-21: an especially hard scene gets its own pool, e.g. of Adversity."""
        self._check_open()
        if pool in self.pools:
            raise Conflict(
                f"this scene already has its own {pool} pool",
                code="pool_exists",
                rule="WCBH-21",
            )
        if amount < 0:
            raise InvalidInput("amount must not be negative", field="amount", rule="WCBH-21")
        self._pool_opened(pool, amount, reason)

    @event("PoolOpened")
    def _pool_opened(self, pool: str, amount: int, reason: str) -> None:
        self.pools[pool] = amount

    def change_pool(self, pool: str, change: int, reason: str) -> None:
        """WCBH-21: the GM gains or spends from the scene's own pool; never below zero."""
        self._check_open()
        check_change(self.pools, pool, change, owner="this scene", kind="pool", rule="WCBH-21")
        self._pool_changed(pool, change, reason)

    @event("PoolChanged")
    def _pool_changed(self, pool: str, change: int, reason: str) -> None:
        self.pools[pool] += change

    def imitate_power(
        self, character_id: UUID, trait: str, power: str, rank: int, purpose: str
    ) -> None:
        """WCBH-20f: for this scene the character's `trait` imitates `power` at the same rank."""
        self._check_open()
        self._power_imitated(character_id, trait, power, rank, purpose, self.page)

    @event("PowerImitated")
    def _power_imitated(
        self, character_id: UUID, trait: str, power: str, rank: int, purpose: str, page: int
    ) -> None:
        self.imitations.append(
            {
                "character_id": character_id,
                "trait": trait,
                "power": power,
                "rank": rank,
                "purpose": purpose,
                "page": page,
            }
        )

    # ---- a game system's own state (the one way a scene keeps it) -----------------------------
    # The system's commands check their rules first; the event below changes one area of the
    # system's state through the ruleset's pure `SceneState.apply`, which the scene view applies too.

    def state(self, ruleset_id: str, area: str) -> dict[str, Any]:
        """A copy of one area of the system's state on this scene, as of this page."""
        return scene_state(ruleset_id, area).state_of(self.states.get(area), self.page)

    def change_state(
        self, ruleset_id: str, area: str, change: str, details: dict[str, Any]
    ) -> None:
        """One change of an area of the system's state (``change`` names it: ``acted``...)."""
        self._check_open()
        self._state_changed(ruleset_id, area, change, details, self.page)

    @event("StateChanged")
    def _state_changed(
        self, ruleset: str, area: str, change: str, details: dict[str, Any], page: int
    ) -> None:
        self._apply_state(ruleset, area, change, details, page)

    def _apply_state(
        self, ruleset: str, area: str, change: str, details: dict[str, Any], page: int
    ) -> None:
        rules = scene_state(ruleset, area)
        self.states[area] = rules.apply(self.states.get(area), page, change, details)

    # ---- Class D Heroes combat, as recorded before StateChanged (systems/classd/rules/combat.py) ----
    # The round now changes by StateChanged; old logs hold these event types, and each is read as
    # the change it was (`combat.apply` knows their names and fields).

    @event("ClassDTurnEnded")
    def _classd_turn_ended(self, round_number: int) -> None:
        self._classd_recorded("ClassDTurnEnded", round_number=round_number)

    @event("ClassDRoundStarted")
    def _classd_round_started(self, round_number: int, escaped: list[UUID]) -> None:
        self._classd_recorded("ClassDRoundStarted", round_number=round_number, escaped=escaped)

    @event("ClassDActed")
    def _classd_acted(self, character_id: UUID, action: str, free: bool) -> None:
        self._classd_recorded("ClassDActed", character_id=character_id, action=action, free=free)

    @event("ClassDReacted")
    def _classd_reacted(self, villain_id: UUID, attack_type: str, spent: bool) -> None:
        self._classd_recorded(
            "ClassDReacted", villain_id=villain_id, attack_type=attack_type, spent=spent
        )

    @event("ClassDEngaged")
    def _classd_engaged(self, attacker_id: UUID, target_id: UUID, side: str) -> None:
        self._classd_recorded(
            "ClassDEngaged", attacker_id=attacker_id, target_id=target_id, side=side
        )

    @event("ClassDEdgeGained")
    def _classd_edge_gained(self, character_id: UUID, kind: str, until_round: int) -> None:
        self._classd_recorded(
            "ClassDEdgeGained", character_id=character_id, kind=kind, until_round=until_round
        )

    @event("ClassDLeftFight")
    def _classd_left(self, character_id: UUID, how: str) -> None:
        self._classd_recorded("ClassDLeftFight", character_id=character_id, how=how)

    @event("ClassDStopAttempted")
    def _classd_stop_attempted(self, hero_id: UUID, villain_id: UUID, stopped: bool) -> None:
        self._classd_recorded(
            "ClassDStopAttempted", hero_id=hero_id, villain_id=villain_id, stopped=stopped
        )

    @event("ClassDShieldChanged")
    def _classd_shield_changed(
        self, villain_id: UUID, hostage_id: UUID | None, hostage: str | None
    ) -> None:
        self._classd_recorded(
            "ClassDShieldChanged", villain_id=villain_id, hostage_id=hostage_id, hostage=hostage
        )

    def _classd_recorded(self, event_type: str, **fields: Any) -> None:
        self._apply_state(CLASSD, "round", event_type, fields, self.page)

    # ---- the WCBH fight's page (WCBH-25, 45, 46): its state is Scene.state(WCBH, "fight") ---------
    # Recorded before StateChanged existed; each applies the same change the same way.

    @event("PageStateSet")
    def _page_state_set(
        self, character_id: UUID, page: int, state: dict[str, Any], change: str
    ) -> None:
        details = {"character_id": str(character_id), "page": page, "state": state, "what": change}
        self._apply_state(WCBH, "fight", "page_state", details, self.page)

    @event("AttackFollowedUp")
    def _attack_followed_up(
        self, roll_id: UUID, kind: str, character_id: UUID, details: dict[str, Any], page: int
    ) -> None:
        followed = {"roll_id": str(roll_id), "kind": kind, "character_id": str(character_id)}
        self._apply_state(
            WCBH, "fight", "attack_followed_up", {**followed, "details": details}, page
        )

    # ---- nWoD micro firefights (NW-7..NW-18): retired, kept so that older logs replay ----------
    # The firefight's state is now kept with change_state (systems/nwod_micro/commands/fight.py).

    @event("NwodFightChanged")
    def _nwod_fight_changed(self, change: str, details: dict[str, Any], page: int) -> None:
        # Recorded before StateChanged existed: the same change, applied the same way.
        self._apply_state(NWOD, "fight", change, details, page)

    # ---- Nimble encounters (NB-1..NB-19): retired, kept so that older logs replay -------------
    # The encounter's state is now kept with change_state (systems/nimble/commands/encounter.py).

    @event("NimbleEncounterChanged")
    def _nimble_encounter_changed(self, change: str, details: dict[str, Any], page: int) -> None:
        # A Nimble encounter's change recorded before StateChanged: applied the same way.
        self._apply_state(NIMBLE, "encounter", change, details, page)


# The ruleset of the firefight events recorded before StateChanged (Scene.NwodFightChanged).
NWOD = "nwod-micro"
# The ruleset of the round events recorded before StateChanged (Scene.ClassDActed…).
CLASSD = "classd"
# The ruleset of the WCBH events recorded before StateChanged (Scene.GroupCheckOpened,
# PageStateSet, AttackFollowedUp...).
WCBH = "wcbh"
# The ruleset of the encounter events recorded before StateChanged (Scene.NimbleEncounterChanged).
NIMBLE = "nimble"


def scene_state(ruleset_id: str, area: str) -> SceneState:
    """One area of a ruleset's state on a scene (the aggregate and the scene view apply it)."""
    return get_ruleset(ruleset_id).scene_states[area]

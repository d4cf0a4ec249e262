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
from domain.errors import Conflict, InvalidInput, NotFound
from domain.rulesets import get_ruleset
from domain.rulesets.base import SceneState
from systems.classd.rules import combat as classd_combat
from systems.wcbh.rules.movement import (
    CHASE_SHIFT_NET,
    CHASE_WIN_BONUS,
    ChaseState,
    resolve_chase,
)
from systems.wcbh.rules.play import GROUP_KEEP, Contest, group_check


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
        # Scene play (systems/wcbh/commands/scene_play.py), by id: group checks (WCBH-11), contests
        # (WCBH-12), chases (WCBH-27).
        self.group_checks: dict[str, dict[str, Any]] = {}
        self.contests: dict[str, dict[str, Any]] = {}
        self.chases: dict[str, dict[str, Any]] = {}
        # Each game system's own state on the scene, by area (its Ruleset.scene_states).
        self.states: dict[str, dict[str, Any]] = {}
        self._init_resolve_area()
        self._init_classd_area()
        self._init_fight_area()

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
        self._turn_fight_page()

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

    # ---- scene play: group checks, contests, chases (WCBH-11, 12, 27; systems/wcbh/commands/scene_play.py) --

    def open_group_check(
        self, group_id: UUID, participants: list[UUID], difficulty: int, purpose: str
    ) -> None:
        """WCBH-11: two or more characters roll separately but act as one group."""
        self._check_open()
        if len(participants) < 2 or len(set(participants)) != len(participants):
            raise InvalidInput(
                "a group check is two or more different characters",
                field="participants",
                rule="WCBH-11",
            )
        ids = [str(c) for c in participants]
        self._group_check_opened(group_id, ids, difficulty, purpose, self.page)

    @event("GroupCheckOpened")
    def _group_check_opened(
        self, group_id: UUID, participants: list[str], difficulty: int, purpose: str, page: int
    ) -> None:
        self.group_checks[str(group_id)] = {
            "participants": participants,
            "difficulty": difficulty,
            "purpose": purpose,
            "page": page,
            "rolls": {},
            "handovers": [],
        }

    def check_group_roll(self, group_id: UUID, character_id: UUID) -> dict[str, Any]:
        """The group check a participant may still roll in (WCBH-11: each rolls once)."""
        group = self._play_state(self.group_checks, group_id, "group check")
        if str(character_id) not in group["participants"]:
            raise InvalidInput(
                "the character is not in this group check", field="character_id", rule="WCBH-11"
            )
        if str(character_id) in group["rolls"]:
            raise Conflict(
                "the character has already rolled in this group check",
                code="already_rolled",
                rule="WCBH-11",
            )
        return group

    def group_roll(self, group_id: UUID, character_id: UUID, roll_id: UUID, successes: int) -> None:
        self._check_open()
        self.check_group_roll(group_id, character_id)
        self._group_rolled(group_id, character_id, roll_id, successes)

    @event("GroupCheckRolled")
    def _group_rolled(
        self, group_id: UUID, character_id: UUID, roll_id: UUID, successes: int
    ) -> None:
        self.group_checks[str(group_id)]["rolls"][str(character_id)] = {
            "roll_id": str(roll_id),
            "successes": successes,
            "total": successes,
        }

    def hand_over(self, group_id: UUID, giver_id: UUID, receiver_id: UUID, successes: int) -> None:
        """WCBH-11: after everyone rolled, a character with more than 3 successes hands the ones
        above 3 to others of the group (ruling: only its own rolled ones, never received ones)."""
        self._check_open()
        group = self._play_state(self.group_checks, group_id, "group check")
        giver, receiver = str(giver_id), str(receiver_id)
        for who, field in ((giver, "giver_id"), (receiver, "receiver_id")):
            if who not in group["participants"]:
                raise InvalidInput(
                    "the character is not in this group check", field=field, rule="WCBH-11"
                )
        if giver == receiver:
            raise InvalidInput(
                "hand successes to another member of the group", field="receiver_id", rule="WCBH-11"
            )
        waiting = [c for c in group["participants"] if c not in group["rolls"]]
        if waiting:
            raise Conflict(
                "successes are handed over once everyone in the group has rolled",
                code="group_check_incomplete",
                rule="WCBH-11",
                details={"waiting_for": waiting},
            )
        rolled = {c: r["successes"] for c, r in group["rolls"].items()}
        given = sum(h["successes"] for h in group["handovers"] if h["giver_id"] == giver)
        spare = max(0, rolled[giver] - GROUP_KEEP) - given
        if successes > spare:
            raise Conflict(
                f"the character has {spare} successes above {GROUP_KEEP} left to hand over, "
                f"not {successes}",
                code="not_enough_successes",
                rule="WCBH-11",
                details={"have": spare, "needed": successes},
            )
        done = [(h["giver_id"], h["receiver_id"], h["successes"]) for h in group["handovers"]]
        group_check(rolled, [*done, (giver, receiver, successes)])  # the library's own check
        self._successes_handed_over(group_id, giver_id, receiver_id, successes)

    @event("SuccessesHandedOver")
    def _successes_handed_over(
        self, group_id: UUID, giver_id: UUID, receiver_id: UUID, successes: int
    ) -> None:
        group = self.group_checks[str(group_id)]
        group["handovers"].append(
            {"giver_id": str(giver_id), "receiver_id": str(receiver_id), "successes": successes}
        )
        group["rolls"][str(giver_id)]["total"] -= successes
        group["rolls"][str(receiver_id)]["total"] += successes

    def start_contest(
        self, contest_id: UUID, first_id: UUID, second_id: UUID, rolls: int, purpose: str
    ) -> None:
        """WCBH-12: a series of `rolls` checks between two characters."""
        self._check_open()
        Contest((str(first_id), str(second_id)), rolls)  # refuses one side twice or no rolls
        self._contest_started(contest_id, first_id, second_id, rolls, purpose, self.page)

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
        self.contests[str(contest_id)] = {
            "sides": [str(first_id), str(second_id)],
            "rolls": rolls,
            "purpose": purpose,
            "page": page,
            "current": {},
            "winners": [],
            "history": [],
            "finished": False,
            "winner": None,
        }

    def contest_bonus(self, contest_id: UUID, character_id: UUID) -> int:
        """WCBH-12: the dice a side's next roll gets (+2 after winning the previous roll);
        refuses a character that is no side, a finished contest or a second roll in a round."""
        contest = self._play_state(self.contests, contest_id, "contest")
        side = str(character_id)
        if side not in contest["sides"]:
            raise InvalidInput(
                "the character is not a side of this contest", field="character_id", rule="WCBH-12"
            )
        if contest["finished"]:
            raise Conflict("the contest is over", code="contest_over", rule="WCBH-12")
        if side in contest["current"]:
            raise Conflict(
                "the character has already rolled in this round of the contest",
                code="already_rolled",
                rule="WCBH-12",
            )
        return self._contest_state(contest).dice_bonus(side)

    def contest_roll(
        self, contest_id: UUID, character_id: UUID, roll_id: UUID, successes: int, bonus: int
    ) -> None:
        """WCBH-12: one side's roll; the round is decided once both sides have rolled."""
        self._check_open()
        self.contest_bonus(contest_id, character_id)
        contest = self.contests[str(contest_id)]
        side = str(character_id)
        other = next(s for s in contest["sides"] if s != side)
        winner, decided = None, other in contest["current"]
        if decided:
            rolled = {side: successes, other: contest["current"][other]["successes"]}
            first, second = contest["sides"]
            winner = self._contest_state(contest).record(rolled[first], rolled[second]).winners[-1]
        self._contest_rolled(contest_id, character_id, roll_id, successes, bonus, decided, winner)

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
        contest = self.contests[str(contest_id)]
        contest["current"][str(character_id)] = {
            "roll_id": str(roll_id),
            "successes": successes,
            "bonus": bonus,
        }
        if decided:
            contest["history"].append(
                {
                    "round": len(contest["history"]) + 1,
                    "rolls": contest["current"],
                    "winner": winner,
                }
            )
            contest["winners"].append(winner)
            contest["current"] = {}
            contest["finished"] = self._contest_state(contest).finished
            contest["winner"] = self._contest_state(contest).winner

    def start_chase(self, chase_id: UUID, pairs: list[tuple[UUID, UUID]], distance: str) -> None:
        """WCBH-27: pursuers, each after one target, at a starting range class."""
        self._check_open()
        if distance not in ("close", "far", "extreme"):
            raise InvalidInput(
                "a chase starts at close, far or extreme range", field="range", rule="WCBH-27"
            )
        pursuers = [p for p, _ in pairs]
        if not pairs or len(set(pursuers)) != len(pursuers):
            raise InvalidInput("each pursuer picks one target", field="pairs", rule="WCBH-27")
        if any(p == t for p, t in pairs):
            raise InvalidInput("a character does not chase itself", field="pairs", rule="WCBH-27")
        rows = [{"pursuer": str(p), "target": str(t)} for p, t in pairs]
        self._chase_started(chase_id, rows, distance, self.page)

    @event("ChaseStarted")
    def _chase_started(
        self, chase_id: UUID, pairs: list[dict[str, str]], distance: str, page: int
    ) -> None:
        everyone = [c for pair in pairs for c in (pair["pursuer"], pair["target"])]
        self.chases[str(chase_id)] = {
            "pairs": [{**p, "range": distance, "over": False, "history": []} for p in pairs],
            "bonus": dict.fromkeys(everyone, 0),
            "checks": {},
            "page": page,
            "over": False,
        }

    def chase_bonus(self, chase_id: UUID, character_id: UUID) -> int:
        """WCBH-27: the dice a participant's chase check gets (+2 after winning); refuses one who
        is in no running pair, or a second check in the same page."""
        chase = self._play_state(self.chases, chase_id, "chase")
        who = str(character_id)
        mine = [p for p in chase["pairs"] if who in (p["pursuer"], p["target"])]
        if not mine:
            raise InvalidInput(
                "the character takes no part in this chase", field="character_id", rule="WCBH-27"
            )
        if all(p["over"] for p in mine):
            raise Conflict("the character's chase is over", code="chase_over", rule="WCBH-27")
        check = chase["checks"].get(who)
        if check is not None and check["page"] == self.page:
            raise Conflict(
                "one chase check per page: the character has already rolled in this page",
                code="already_rolled",
                rule="WCBH-27",
                details={"page": self.page},
            )
        return int(chase["bonus"].get(who, 0))

    def chase_check(
        self,
        chase_id: UUID,
        character_id: UUID,
        roll_id: UUID,
        successes: int,
        bonus: int,
        shift: int | None,
    ) -> None:
        """WCBH-27: one participant's chase check of this page; each of its running pairs is
        decided once the other side has rolled in the same page (a lone check of an earlier page
        lapses)."""
        self._check_open()
        self.chase_bonus(chase_id, character_id)
        chase = self.chases[str(chase_id)]
        who = str(character_id)
        this_page = {
            c: v for c, v in chase["checks"].items() if v["page"] == self.page and c != who
        }
        this_page[who] = {"successes": successes, "shift": shift}
        results = []
        for index, pair in enumerate(chase["pairs"]):
            if pair["over"] or who not in (pair["pursuer"], pair["target"]):
                continue
            other = pair["target"] if who == pair["pursuer"] else pair["pursuer"]
            if other not in this_page:
                continue
            pursuer, target = this_page[pair["pursuer"]], this_page[pair["target"]]
            net = pursuer["successes"] - target["successes"]
            winner = pursuer if net > 0 else target
            step = winner["shift"] if net and abs(net) >= CHASE_SHIFT_NET else None
            state = ChaseState(pair["pursuer"], pair["target"], pair["range"])
            page = resolve_chase(state, pursuer["successes"], target["successes"], shift=step)
            results.append(
                {"pair": index, "winner": page.winner, "net": page.net, "range": page.state.range}
            )
        self._chase_checked(
            chase_id, character_id, roll_id, successes, bonus, shift, self.page, results
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
        chase = self.chases[str(chase_id)]
        who = str(character_id)
        chase["checks"] = {c: v for c, v in chase["checks"].items() if v["page"] == page}
        chase["checks"][who] = {
            "roll_id": str(roll_id),
            "successes": successes,
            "bonus": bonus,
            "shift": shift,
            "page": page,
        }
        chase["bonus"][who] = 0  # spent on this check
        for result in results:
            pair = chase["pairs"][result["pair"]]
            pair["history"].append(
                {
                    "page": page,
                    "pursuer": dict(chase["checks"][pair["pursuer"]]),
                    "target": dict(chase["checks"][pair["target"]]),
                    "winner": result["winner"],
                    "net": result["net"],
                    "range": result["range"],
                }
            )
            pair["range"] = result["range"]
            pair["over"] = result["range"] in ("cornered", "escaped")
            if result["winner"] is not None:
                chase["bonus"][result["winner"]] = CHASE_WIN_BONUS
        chase["over"] = all(p["over"] for p in chase["pairs"])

    @staticmethod
    def _play_state(
        states: dict[str, dict[str, Any]], state_id: UUID, label: str
    ) -> dict[str, Any]:
        found = states.get(str(state_id))
        if found is None:
            raise NotFound(f"{label} {state_id} not found in this scene")
        return found

    @staticmethod
    def _contest_state(state: dict[str, Any]) -> Contest:
        sides = state["sides"]
        return Contest((sides[0], sides[1]), state["rolls"], tuple(state["winners"]))

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
        return _scene_state(ruleset_id, area).state_of(self.states.get(area), self.page)

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
        rules = _scene_state(ruleset, area)
        self.states[area] = rules.apply(self.states.get(area), page, change, details)

    # ---- Class D Heroes combat (CD-8..CD-20; systems/classd/commands/fight.py) ------------------
    # The verb checks the rules (systems/classd/rules/combat.py) first; each event below changes
    # the round's JSON state through `classd_combat.apply`, which the scene view replays too.

    def _init_classd_area(self) -> None:
        self.classd_state: dict[str, Any] | None = None  # None until the first Class D event

    @property
    def classd(self) -> dict[str, Any]:
        """A copy of the Class D combat state (round, turn, actions, reactions, engaged…)."""
        return classd_combat.state_of(self.classd_state, self.page)

    def _classd(self, name: str, **fields: Any) -> None:
        self.classd_state = classd_combat.apply(self.classd_state, self.page, name, **fields)

    def end_heroes_turn(self) -> None:
        """CD-8: the GM ends the heroes' turn; the villains' turn of this round begins."""
        self._check_open()
        classd_combat.check_turn(self.classd, "heroes")
        self._classd_turn_ended(self.page)

    @event("ClassDTurnEnded")
    def _classd_turn_ended(self, round_number: int) -> None:
        self._classd("ClassDTurnEnded", round=round_number)

    def start_classd_round(self, escaped: list[UUID]) -> None:
        """CD-8/17: a new round (the page advanced): reactions and actions reset, heroes first;
        villains still fleeing have escaped (CD-16)."""
        self._classd_round_started(self.page, escaped)

    @event("ClassDRoundStarted")
    def _classd_round_started(self, round_number: int, escaped: list[UUID]) -> None:
        self._classd("ClassDRoundStarted", round=round_number, escaped=[str(e) for e in escaped])

    def classd_act(self, character_id: UUID, action: str, free: bool = False) -> None:
        """CD-9/15/17/18: an action of a character this round (``free``: a move that took none)."""
        self._check_open()
        self._classd_acted(character_id, action, free)

    @event("ClassDActed")
    def _classd_acted(self, character_id: UUID, action: str, free: bool) -> None:
        self._classd("ClassDActed", character_id=character_id, action=action, free=free)

    def classd_react(self, villain_id: UUID, attack_type: str, spent: bool) -> None:
        """CD-11/17: a villain hit back; ``spent`` False after a critical failure."""
        self._classd_reacted(villain_id, attack_type, spent)

    @event("ClassDReacted")
    def _classd_reacted(self, villain_id: UUID, attack_type: str, spent: bool) -> None:
        self._classd("ClassDReacted", villain_id=villain_id, attack_type=attack_type, spent=spent)

    def classd_engage(self, attacker_id: UUID, target_id: UUID, side: str) -> None:
        """CD-19: a melee attack engages the pair until the attacker's side's next turn."""
        self._classd_engaged(attacker_id, target_id, side)

    @event("ClassDEngaged")
    def _classd_engaged(self, attacker_id: UUID, target_id: UUID, side: str) -> None:
        self._classd("ClassDEngaged", attacker_id=attacker_id, target_id=target_id, side=side)

    def classd_gain_edge(self, character_id: UUID, kind: str, until_round: int) -> None:
        """CD-18: a successful move gives an edge until the end of round ``until_round``."""
        classd_combat.check_edge_kind(kind)
        self._classd_edge_gained(character_id, kind, until_round)

    @event("ClassDEdgeGained")
    def _classd_edge_gained(self, character_id: UUID, kind: str, until_round: int) -> None:
        self._classd(
            "ClassDEdgeGained", character_id=character_id, kind=kind, until_round=until_round
        )

    def classd_leave(self, character_id: UUID, how: str) -> None:
        """CD-14/16: a hero retreated, or a villain escaped."""
        self._classd_left(character_id, how)

    @event("ClassDLeftFight")
    def _classd_left(self, character_id: UUID, how: str) -> None:
        self._classd("ClassDLeftFight", character_id=character_id, how=how)

    def classd_stop(self, hero_id: UUID, villain_id: UUID, stopped: bool) -> None:
        """CD-16: a hero tried to stop a fleeing villain (one attempt per hero per turn)."""
        self._check_open()
        self._classd_stop_attempted(hero_id, villain_id, stopped)

    @event("ClassDStopAttempted")
    def _classd_stop_attempted(self, hero_id: UUID, villain_id: UUID, stopped: bool) -> None:
        self._classd("ClassDStopAttempted", hero_id=hero_id, villain_id=villain_id, stopped=stopped)

    def classd_shield(self, villain_id: UUID, hostage_id: UUID | None, hostage: str | None) -> None:
        """CD-20: the villain holds a hostage as a shield (``hostage`` None: released)."""
        self._check_open()
        self._classd_shield_changed(villain_id, hostage_id, hostage)

    @event("ClassDShieldChanged")
    def _classd_shield_changed(
        self, villain_id: UUID, hostage_id: UUID | None, hostage: str | None
    ) -> None:
        self._classd(
            "ClassDShieldChanged", villain_id=villain_id, hostage_id=hostage_id, hostage=hostage
        )

    # ---- the fight's page (WCBH-25, WCBH-40..47; systems/wcbh/commands/fight.py) -----------------------

    def _init_fight_area(self) -> None:
        # WCBH-25: each character's page state (declared and used actions, targets, move, lost
        # turn...) for the current page, and what the next page starts with (lost turns).
        self.page_states: dict[str, dict[str, Any]] = {}
        self.next_page_states: dict[str, dict[str, Any]] = {}
        # WCBH-45, 46: what followed an attack roll (knockback, redirect), by roll id.
        self.attack_follow_ups: dict[str, dict[str, Any]] = {}

    def _turn_fight_page(self) -> None:
        self.page_states = getattr(self, "next_page_states", {})
        self.next_page_states = {}

    def page_state(self, character_id: UUID, *, next_page: bool = False) -> dict[str, Any]:
        states = self.next_page_states if next_page else self.page_states
        return dict(states.get(str(character_id), {}))

    def set_page_state(
        self, character_id: UUID, state: dict[str, Any], change: str, *, next_page: bool = False
    ) -> None:
        """WCBH-25: the character's page state (this page, or what the next one starts with)."""
        self._check_open()
        self._page_state_set(character_id, self.page + (1 if next_page else 0), state, change)

    @event("PageStateSet")
    def _page_state_set(
        self, character_id: UUID, page: int, state: dict[str, Any], change: str
    ) -> None:
        states = self.page_states if page == self.page else self.next_page_states
        states[str(character_id)] = state

    def follow_up_attack(
        self, roll_id: UUID, kind: str, character_id: UUID, details: dict[str, Any]
    ) -> None:
        """WCBH-45, 46: a knockback or a redirect after an attack roll, once per roll."""
        self._check_open()
        done = self.attack_follow_ups.get(str(roll_id))
        if done is not None:
            raise Conflict(
                f"this attack roll was already followed by a {done['kind']}",
                code="attack_followed_up",
                rule="WCBH-45" if done["kind"] == "knockback" else "WCBH-46",
                details={"kind": done["kind"]},
            )
        self._attack_followed_up(roll_id, kind, character_id, details, self.page)

    @event("AttackFollowedUp")
    def _attack_followed_up(
        self, roll_id: UUID, kind: str, character_id: UUID, details: dict[str, Any], page: int
    ) -> None:
        self.attack_follow_ups[str(roll_id)] = {
            "kind": kind,
            "character_id": str(character_id),
            "page": page,
            **details,
        }

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
# The ruleset of the encounter events recorded before StateChanged (Scene.NimbleEncounterChanged).
NIMBLE = "nimble"


def _scene_state(ruleset_id: str, area: str) -> SceneState:
    return get_ruleset(ruleset_id).scene_states[area]

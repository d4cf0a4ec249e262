"""We Can Be Heroes combat core: a character's Page (WCBH-25), attack against the best defence,
damage, defeat and recovery (WCBH-28..34). Pure: dice come only from the Roller passed in.

The rest of the combat rules live beside it: ``initiative`` (WCBH-22..24), ``movement``
(WCBH-26, 27), ``effects`` (WCBH-35..39), ``maneuvers`` (WCBH-40..47); play outside combat in
``play`` (WCBH-10..12, 15..21).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from domain.dice.roller import Roller
from domain.errors import InvalidInput
from systems.wcbh.rules.pools import PoolRoll, halve, roll_pool

__all__ = [
    "EXTRA_ACTION_PENALTY",
    "RECOVERY_DIFFICULTY",
    "RECOVERY_DIFFICULTY_RESTED",
    "STAMINA",
    "AttackResult",
    "Defence",
    "Hit",
    "PageState",
    "best_defence",
    "hit",
    "recover",
    "recovery_difficulty",
    "roll_attack",
    "roll_recovery",
    "situational_modifier",
]

EXTRA_ACTION_PENALTY = -2
"""WCBH-25: dice off every action roll of the Page per extra action declared."""

STAMINA = "Stamina"
RECOVERY_DIFFICULTY = 2  # WCBH-34
RECOVERY_DIFFICULTY_RESTED = 1  # WCBH-34: a whole day of nothing but rest


# -- WCBH-25: the per-Page action economy -----------------------------------------------------


@dataclass(frozen=True)
class PageState:
    """What one character has done this Page (WCBH-25): declared actions, actions used, targets
    attacked, whether it moved. Every change returns a new state or raises ``InvalidInput``.

    ``lost_turn`` (knockback WCBH-45, a 5+ maneuver WCBH-41, redirecting at someone WCBH-46,
    dodging an area attack by skipping WCBH-43, an ambush WCBH-42) forbids actions and moving;
    ``immobile`` (a 3-4 maneuver, WCBH-41) forbids moving; ``all_out_defence`` (WCBH-44) forbids
    actions but not moving; ``halve_active`` / ``halve_passive`` are the character's own defences
    halved to the end of the Page by its charge or all-out attack (WCBH-44).
    """

    character: str
    declared: int = 1
    used: int = 0
    attacked: frozenset[str] = frozenset()
    moved: bool = False
    lost_turn: bool = False
    immobile: bool = False
    all_out_defence: bool = False
    halve_active: bool = False
    halve_passive: bool = False

    @property
    def action_penalty(self) -> int:
        """WCBH-25: −2 dice per extra action on every action roll of the Page (3 attacks: −4
        each). Defence rolls and checks that are no actions (chase WCBH-27, recovery WCBH-34)
        are not penalised; ``dice_modifier`` says which applies."""
        return EXTRA_ACTION_PENALTY * (self.declared - 1)

    def dice_modifier(self, *, defence: bool) -> int:
        """Dice the Page adds to a roll: the extra-action penalty on actions (WCBH-25), +2 on
        defence under all-out defence (WCBH-44)."""
        if defence:
            return 2 if self.all_out_defence else 0
        return self.action_penalty

    def declare_action(self) -> PageState:
        """WCBH-25: declare one more action this Page. Ruling: extra actions are declared before
        the first action is taken, since their penalty reaches every action roll of the Page."""
        self._check_can_act()
        if self.used:
            raise InvalidInput(
                "extra actions are declared before the first action of the Page",
                field="action",
                rule="WCBH-25",
            )
        return replace(self, declared=self.declared + 1)

    def act(self) -> PageState:
        """WCBH-25: take one declared action that attacks no one (e.g. defending others,
        WCBH-44)."""
        self._check_can_act()
        if self.used >= self.declared:
            raise InvalidInput(
                f"all {self.declared} declared actions of the Page are taken; declare extra "
                "actions at the start of the Page",
                field="action",
                rule="WCBH-25",
            )
        return replace(self, used=self.used + 1)

    def attack(self, target: str) -> PageState:
        """WCBH-25: attack ``target`` with a declared action; the same target cannot be attacked
        twice in one Page. Ruling: maneuvers and grapples (WCBH-40, 41) "work like attacks" and
        count as attacks on their target."""
        if target in self.attacked:
            raise InvalidInput(
                f"{target!r} was already attacked this Page",
                field="target",
                rule="WCBH-25",
            )
        return replace(self.act(), attacked=self.attacked | {target})

    def charge(self, target: str) -> PageState:
        """WCBH-44: an attack at +2 dice (``maneuvers.CHARGE_BONUS``) that halves the charger's
        active defence to the end of the Page."""
        return replace(self.attack(target), halve_active=True)

    def all_out_attack(self, target: str) -> PageState:
        """WCBH-44: an attack at +2 dice (``maneuvers.ALL_OUT_BONUS``) that halves the attacker's
        active and passive defence. Ruling: to the end of the Page, as a charge."""
        return replace(self.attack(target), halve_active=True, halve_passive=True)

    def move(self) -> PageState:
        """WCBH-25: one move per Page, besides the action."""
        if self.moved:
            raise InvalidInput("only one move per Page", field="move", rule="WCBH-25")
        if self.lost_turn or self.immobile:
            rule = "WCBH-41" if self.immobile else "WCBH-25"
            raise InvalidInput(f"{self.character!r} cannot move this Page", field="move", rule=rule)
        return replace(self, moved=True)

    def defend_all_out(self) -> PageState:
        """WCBH-44: +2 dice to defence for the Page, no attacks or other actions (moving and free
        actions allowed). Refused once an action was taken."""
        if self.used:
            raise InvalidInput(
                "all-out defence takes the whole Page: an action was already taken",
                field="action",
                rule="WCBH-44",
            )
        return replace(self, all_out_defence=True)

    def _check_can_act(self) -> None:
        if self.lost_turn:
            raise InvalidInput(
                f"{self.character!r} lost its turn this Page", field="action", rule="WCBH-25"
            )
        if self.all_out_defence:
            raise InvalidInput("no actions under all-out defence", field="action", rule="WCBH-44")


# -- WCBH-28..31, 33: attack, defence, damage --------------------------------------------------


@dataclass(frozen=True)
class Defence:
    """A defence option: an active trait (e.g. Agility to dodge) or a passive one (armour,
    Stamina) (WCBH-28). A passive defence named ``Stamina`` is halved against lethal attacks
    (WCBH-29)."""

    name: str
    rank: int
    active: bool

    @property
    def is_stamina(self) -> bool:
        return not self.active and self.name.casefold() == STAMINA.casefold()


def best_defence(
    options: Iterable[Defence],
    *,
    lethal: bool = True,
    halve_active: bool = False,
    halve_passive: bool = False,
) -> Defence:
    """WCBH-28: the target defends with the highest option available, at its effective rank.

    - WCBH-29: passive Stamina counts half (rounded up) against a lethal attack, full otherwise.
    - ``halve_active`` / ``halve_passive``: a charge (WCBH-44, active), an all-out attack (WCBH-44,
      both) or dodging an area attack (WCBH-43, active).
    Rulings: a defence is halved at most once, however many rules halve it; on equal effective
    ranks an active defence is chosen (it keeps redirecting, WCBH-46, open).
    """
    ranked = [_effective(d, lethal, halve_active, halve_passive) for d in options]
    if not ranked:
        raise InvalidInput("the target has no defence to roll", field="defences", rule="WCBH-28")
    return max(ranked, key=lambda d: (d.rank, d.active))


def _effective(d: Defence, lethal: bool, halve_active: bool, halve_passive: bool) -> Defence:
    halved = (
        (d.is_stamina and lethal) or (d.active and halve_active) or (not d.active and halve_passive)
    )
    return replace(d, rank=halve(d.rank)) if halved else d


SIZE_MODIFIERS = {"tenth": -3, "half": -1, "same": 0, "double": 1, "tenfold": 3}
"""WCBH-30: dice on an attack by the target's size relative to the attacker's."""

Size = Literal["tenth", "half", "same", "double", "tenfold"]


def situational_modifier(*, cover: int = 0, size: Size = "same") -> int:
    """WCBH-30: cover or poor visibility −1 to −3 (``cover`` 0..3, the GM's call); a target twice
    as big +1, ten times +3; half as big −1, a tenth −3."""
    if not 0 <= cover <= 3:
        raise InvalidInput(
            "cover or poor visibility costs 0 to 3 dice", field="cover", rule="WCBH-30"
        )
    return SIZE_MODIFIERS[size] - cover


@dataclass(frozen=True)
class Hit:
    """What an attack did to one target (WCBH-31, WCBH-33)."""

    net: int
    damage: int
    health: int
    defeated: bool


def hit(attack_successes: int, defence_successes: int, health: int, *, minion: bool = False) -> Hit:
    """WCBH-31: damage = attack successes − defence successes when positive; at 0 Health the target
    is defeated. WCBH-33: one net success defeats a minion, whatever its Health."""
    net = attack_successes - defence_successes
    damage = max(0, net)
    left = 0 if minion and net >= 1 else max(0, health - damage)
    return Hit(net, damage, left, left == 0)


@dataclass(frozen=True)
class AttackResult:
    """Both rolls of an attack, the defence used and what it did."""

    attack: PoolRoll
    defence_used: Defence
    defence: PoolRoll
    hit: Hit


def roll_attack(
    roller: Roller,
    attack_rank: int,
    defences: Iterable[Defence],
    health: int,
    *,
    weapon: int = 0,
    modifier: int = 0,
    defence_modifier: int = 0,
    lethal: bool = True,
    minion: bool = False,
    halve_active: bool = False,
    halve_passive: bool = False,
    explode: bool = False,
) -> AttackResult:
    """WCBH-28: roll the attacking trait (+ ``weapon`` dice, + ``modifier``: WCBH-25, 30, 44)
    against the target's best defence (WCBH-28, 29; + ``defence_modifier``); damage and defeat by
    WCBH-31 and WCBH-33. ``explode``: a Decisive Moment (WCBH-13) or a powered team attack
    (WCBH-47). The attack is rolled first, then the defence."""
    attack = roll_pool(roller, attack_rank, weapon + modifier, explode=explode, label="attack")
    defence = best_defence(
        defences, lethal=lethal, halve_active=halve_active, halve_passive=halve_passive
    )
    rolled = roll_pool(roller, defence.rank, defence_modifier, label="defence")
    return AttackResult(
        attack, defence, rolled, hit(attack.successes, rolled.successes, health, minion=minion)
    )


# -- WCBH-34: recovery --------------------------------------------------------------------------


def recovery_difficulty(*, rested_whole_day: bool = False) -> int:
    """WCBH-34: a Stamina check at difficulty 2 after combat or after a day's rest; 1 if the
    character did nothing but rest for a whole day."""
    return RECOVERY_DIFFICULTY_RESTED if rested_whole_day else RECOVERY_DIFFICULTY


def recover(
    health: int, max_health: int, stamina_successes: int, *, rested_whole_day: bool = False
) -> int:
    """WCBH-34: +1 Health per net success of the recovery check. Ruling: never above maximum
    Health. How often (once after a fight, then once per day after rest) is the caller's to
    track."""
    net = stamina_successes - recovery_difficulty(rested_whole_day=rested_whole_day)
    return min(max_health, health + max(0, net))


def roll_recovery(
    roller: Roller, stamina: int, health: int, max_health: int, *, rested_whole_day: bool = False
) -> tuple[PoolRoll, int]:
    """WCBH-34: roll Stamina and return the roll with the new Health."""
    rolled = roll_pool(roller, stamina, label="recovery")
    new = recover(health, max_health, rolled.successes, rested_whole_day=rested_whole_day)
    return rolled, new

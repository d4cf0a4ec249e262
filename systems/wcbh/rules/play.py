"""We Can Be Heroes play outside the combat chapter: help, group checks and contests
(WCBH-10..12), Decisive Moment bookkeeping (WCBH-15, 16), Resolve (WCBH-18..20) and Adversity
(WCBH-21). Pure checks over small frozen states."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from domain.dice.roller import Roller
from domain.errors import InvalidInput
from systems.wcbh.rules.pools import PoolRoll, halve, roll_pool

__all__ = [
    "ABILITY_LOSS",
    "AWARD_REASONS",
    "CONTEST_WIN_BONUS",
    "GROUP_KEEP",
    "HELP_DIFFICULTY",
    "RESOLVE_SPENDS",
    "SCENE_LIMITED_SIDES",
    "Adversity",
    "Contest",
    "DecisiveMoments",
    "LastGasp",
    "ResolveSpend",
    "award",
    "best_help",
    "give_resolve",
    "group_check",
    "help_bonus",
    "last_gasp",
    "roll_help",
    "spend_resolve",
]

HELP_DIFFICULTY = 2  # WCBH-10
GROUP_KEEP = 3  # WCBH-11: successes above this may be handed over
CONTEST_WIN_BONUS = 2  # WCBH-12

Effort = Literal["physical", "mental"]

# -- WCBH-10..12: help, group checks, contests ------------------------------------------------


def help_bonus(helper_successes: int) -> int:
    """WCBH-10: a helper rolls at difficulty 2; the helped character gets +1 die per 2 net
    successes of the helper, rounded up (net 1 or 2 -> +1, 3 -> +2)."""
    net = helper_successes - HELP_DIFFICULTY
    return halve(net) if net > 0 else 0


def best_help(helpers_successes: Iterable[int]) -> int:
    """WCBH-10: with several helpers only the best helper's bonus counts."""
    return max((help_bonus(s) for s in helpers_successes), default=0)


def roll_help(roller: Roller, helper_ranks: Mapping[str, int]) -> tuple[dict[str, PoolRoll], int]:
    """WCBH-10: every helper rolls its trait; returns the rolls and the bonus dice (the best)."""
    rolls = {name: roll_pool(roller, rank, label="help") for name, rank in helper_ranks.items()}
    return rolls, best_help(r.successes for r in rolls.values())


def group_check(
    successes: Mapping[str, int], handovers: Iterable[tuple[str, str, int]] = ()
) -> dict[str, int]:
    """WCBH-11: everyone rolls separately; a character with more than 3 successes may hand the
    successes above 3 to the others. ``handovers`` are (giver, receiver, successes).
    Ruling: only one's own rolled successes above 3 can be handed on, not ones received."""
    totals = dict(successes)
    given: dict[str, int] = {}
    for giver, receiver, amount in handovers:
        if giver not in successes or receiver not in successes or giver == receiver:
            raise InvalidInput(
                "hand successes to another member of the group", field="handovers", rule="WCBH-11"
            )
        given[giver] = given.get(giver, 0) + amount
        if amount < 1 or given[giver] > successes[giver] - GROUP_KEEP:
            raise InvalidInput(
                f"{giver!r} can hand over only its successes above {GROUP_KEEP}",
                field="handovers",
                rule="WCBH-11",
            )
        totals[giver] -= amount
        totals[receiver] += amount
    return totals


@dataclass(frozen=True)
class Contest:
    """WCBH-12: a series of checks between two sides (usually 3, epic 6+). The winner of a roll
    gets +2 dice on its next roll; the winner of the final roll wins the contest.
    Rulings: a tied roll has no winner and gives no bonus; a tied final roll is followed by one
    more roll, until someone wins one."""

    sides: tuple[str, str]
    rolls: int = 3
    winners: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        if self.rolls < 1 or self.sides[0] == self.sides[1]:
            raise InvalidInput(
                "a contest is one or more rolls between two sides", field="contest", rule="WCBH-12"
            )

    @property
    def finished(self) -> bool:
        return len(self.winners) >= self.rolls and self.winners[-1] is not None

    @property
    def winner(self) -> str | None:
        return self.winners[-1] if self.finished else None

    def dice_bonus(self, side: str) -> int:
        """+2 dice for the side that won the previous roll."""
        return CONTEST_WIN_BONUS if self.winners and self.winners[-1] == side else 0

    def record(self, first_successes: int, second_successes: int) -> Contest:
        """Record one roll: the sides' successes (with their bonus dice already rolled)."""
        if self.finished:
            raise InvalidInput("the contest is over", field="contest", rule="WCBH-12")
        first, second = self.sides
        won = first if first_successes > second_successes else None
        if second_successes > first_successes:
            won = second
        return replace(self, winners=(*self.winners, won))


# -- WCBH-15, 16: Decisive Moments ---------------------------------------------------------------

ABILITY_LOSS: dict[Effort, tuple[str, ...]] = {
    "physical": ("Agility", "Strength", "Stamina"),
    "mental": ("Intelligence", "Perception", "Will"),
}
"""WCBH-16: the Abilities a Decisive Moment may cost, by the kind of effort."""

SCENE_LIMITED_SIDES = ("hero",)
"""WCBH-15: who shares a Scene's one Decisive Moment. The source says "only one *hero*" per
Scene (the digest: one character), so villains and others are limited only by once per Story."""


@dataclass(frozen=True)
class DecisiveMoments:
    """Who declared a Decisive Moment in this Story and this Scene, the Ability losses still owed
    (character -> effort) and the ranks lost that experience may restore."""

    story: frozenset[str] = frozenset()
    scene: str | None = None
    owed: tuple[tuple[str, Effort], ...] = ()
    lowered: tuple[tuple[str, str], ...] = ()

    def declare(self, character: str, side: str, effort: Effort) -> DecisiveMoments:
        """WCBH-15: once per character per Story; one hero per Scene. WCBH-14: one declaration
        covers every Page of the declared action. WCBH-16: it then owes one Ability rank of the
        effort's kind."""
        if character in self.story:
            raise InvalidInput(
                f"{character!r} already had its Decisive Moment this Story",
                field="character",
                rule="WCBH-15",
            )
        scene = self.scene
        if side in SCENE_LIMITED_SIDES:
            if scene is not None:
                raise InvalidInput(
                    f"{scene!r} already had this Scene's Decisive Moment",
                    field="character",
                    rule="WCBH-15",
                )
            scene = character
        return replace(
            self,
            story=self.story | {character},
            scene=scene,
            owed=(*self.owed, (character, effort)),
        )

    def lose_ability(
        self, character: str, ability: str, abilities: Mapping[str, int]
    ) -> tuple[DecisiveMoments, dict[str, int]]:
        """WCBH-16: settle the owed loss: Agility, Strength or Stamina after a physical effort,
        Intelligence, Perception or Will after a mental one, lowered by 1. Ruling: a rank of 1
        cannot go lower; if every Ability of the kind is at 1, the loss is waived."""
        effort = dict(self.owed).get(character)
        if effort is None:
            raise InvalidInput(
                f"{character!r} owes no Ability loss", field="character", rule="WCBH-16"
            )
        options = ABILITY_LOSS[effort]
        if ability not in options:
            raise InvalidInput(
                f"a {effort} Decisive Moment lowers one of {list(options)}",
                field="ability",
                rule="WCBH-16",
            )
        owed = tuple(pair for pair in self.owed if pair[0] != character)
        ranks = dict(abilities)
        if all(ranks.get(name, 1) <= 1 for name in options):
            return replace(self, owed=owed), ranks
        if ranks.get(ability, 1) <= 1:
            raise InvalidInput(
                f"{ability} is at rank 1: lower another", field="ability", rule="WCBH-16"
            )
        ranks[ability] -= 1
        return replace(self, owed=owed, lowered=(*self.lowered, (character, ability))), ranks

    def restore_ability(
        self, character: str, ability: str, abilities: Mapping[str, int]
    ) -> tuple[DecisiveMoments, dict[str, int]]:
        """WCBH-16: experience restores a rank lost to a Decisive Moment, one per loss."""
        if (character, ability) not in self.lowered:
            raise InvalidInput(
                f"{character!r} lost no {ability} rank to a Decisive Moment",
                field="ability",
                rule="WCBH-16",
            )
        lowered = list(self.lowered)
        lowered.remove((character, ability))
        ranks = dict(abilities)
        ranks[ability] += 1
        return replace(self, lowered=tuple(lowered)), ranks

    def close_scene(self) -> DecisiveMoments:
        """A new Scene may have its own Decisive Moment (WCBH-15)."""
        return replace(self, scene=None)

    def close_story(self) -> DecisiveMoments:
        """WCBH-2/15: a new Story gives everyone a Decisive Moment again; owed and restorable
        losses stay with the characters."""
        return replace(self, story=frozenset(), scene=None)


# -- WCBH-18..20: Resolve -------------------------------------------------------------------------


@dataclass(frozen=True)
class ResolveSpend:
    rule: str
    cost: int
    effect: str
    gm_approval: bool = False


RESOLVE_SPENDS: dict[str, ResolveSpend] = {
    "give": ResolveSpend("WCBH-20a", 1, "1 Resolve to another character, helping (described)"),
    "give_from_afar": ResolveSpend(
        "WCBH-20a",
        2,
        "1 Resolve to another character when the giver cannot help directly "
        "(unconscious, far away), with a flashback",
    ),
    "dice": ResolveSpend(
        "WCBH-20b", 1, "+1 die on a roll (3 in a Decisive Moment, WCBH-13), even after seeing it"
    ),
    "reroll": ResolveSpend("WCBH-20c", 1, "reroll every die of a roll, Resolve dice included"),
    "act_first": ResolveSpend("WCBH-24", 1, "act first every Page from now on (or double Edge)"),
    "back_in_the_fight": ResolveSpend("WCBH-39", 1, "wake up with 3 Health on the next Page"),
    "drop_effect": ResolveSpend("WCBH-39", 1, "be rid of a special effect"),
    "extend_effect": ResolveSpend(
        "WCBH-38", 1, "an effect on a defeated opponent lasts to the end of the next Scene"
    ),
    "knockback": ResolveSpend("WCBH-45", 1, "throw a target hit for 6+ damage"),
    "redirect": ResolveSpend("WCBH-46", 1, "send an attack beaten by 3+ elsewhere"),
    "team_attack": ResolveSpend("WCBH-47", 1, "6s explode on one's team attack roll"),
    "luck": ResolveSpend("WCBH-20e", 1, "change a small narrative detail by luck", True),
    "imitate_power": ResolveSpend(
        "WCBH-20f", 1, "an Ability or Power imitates another Power at its rank", True
    ),
}
"""WCBH-20 a..f (and the combat spends of d): what Resolve buys, at what cost. Rulings: luck (e)
costs 1, the source naming no number; imitation (f) needs the GM to find it logical."""


def spend_resolve(resolve: int, spend: str, times: int = 1) -> int:
    """WCBH-20: the Resolve left after ``times`` spends of kind ``spend``; never below 0."""
    kind = RESOLVE_SPENDS.get(spend)
    if kind is None:
        raise InvalidInput(
            f"unknown Resolve spend {spend!r}",
            field="spend",
            rule="WCBH-20",
            details={"known": list(RESOLVE_SPENDS)},
        )
    if times < 1:
        raise InvalidInput("spend at least once", field="times", rule=kind.rule)
    cost = kind.cost * times
    if cost > resolve:
        raise InvalidInput(
            f"{spend} costs {cost} Resolve; {resolve} left", field="resolve", rule=kind.rule
        )
    return resolve - cost


def give_resolve(giver: int, receiver: int, *, directly: bool = True) -> tuple[int, int]:
    """WCBH-20a: the giver's and receiver's Resolve after giving 1: it costs the giver 1, or 2 when
    it cannot help directly."""
    left = spend_resolve(giver, "give" if directly else "give_from_afar")
    return left, receiver + 1


AWARD_REASONS = {
    "defeated": "defeated in a fight, or a serious setback towards an important goal",
    "flaw": "a Flaw meaningfully affected the story",
    "social": "social play",
    "conviction": "followed its convictions at a personal cost",
}
"""WCBH-18: why the GM awards 1 Resolve."""


def award(resolve: int, reason: str) -> int:
    """WCBH-18: +1 Resolve, awarded by the GM for one of ``AWARD_REASONS``."""
    if reason not in AWARD_REASONS:
        raise InvalidInput(
            f"unknown reason {reason!r}",
            field="reason",
            rule="WCBH-18",
            details={"known": list(AWARD_REASONS)},
        )
    return resolve + 1


@dataclass(frozen=True)
class LastGasp:
    """WCBH-19: 1 Resolve that must be spent on ``page``; right after, the character is
    unconscious to the end of the Scene. Ruling: unspent, it is gone when the Page ends."""

    page: int
    resolve: int = 1

    def spend(self, page: int) -> int:
        """The Resolve left after spending it (0), or a refusal on any other Page."""
        if page != self.page:
            raise InvalidInput(
                "a last gasp is spent in the Page it is drawn", field="page", rule="WCBH-19"
            )
        return 0


def last_gasp(resolve: int, page: int) -> LastGasp:
    """WCBH-19: at 0 Resolve and in trouble a character may draw 1 Resolve."""
    if resolve != 0:
        raise InvalidInput(
            "a last gasp is only for a character at 0 Resolve", field="resolve", rule="WCBH-19"
        )
    return LastGasp(page)


# -- WCBH-21: Adversity ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Adversity:
    """The GM's Adversity for one game Issue, the separate pools of especially hard Scenes (scene
    id -> amount), and whether the Issue's villainous deed was done. Its starting ``pool`` is
    ``WcbhRuleset.issue_pools`` (WCBH-21: one per player), the one source of that number."""

    pool: int
    scenes: tuple[tuple[str, int], ...] = ()
    deed_done: bool = False

    def unbecoming(self) -> Adversity:
        """WCBH-21: +1 each time a hero acts unbecomingly or against its stated principles."""
        return replace(self, pool=self.pool + 1)

    def scene_pool(self, scene: str) -> int:
        return dict(self.scenes).get(scene, 0)

    def open_scene_pool(self, scene: str, amount: int) -> Adversity:
        """WCBH-21: an especially hard Scene gets its own pool, apart from the Issue's."""
        if amount < 0 or scene in dict(self.scenes):
            raise InvalidInput("one pool of 0+ Adversity per Scene", field="scene", rule="WCBH-21")
        return replace(self, scenes=(*self.scenes, (scene, amount)))

    def close_scene(self, scene: str) -> Adversity:
        """Ruling: a Scene's own pool ends with it."""
        return replace(self, scenes=tuple(p for p in self.scenes if p[0] != scene))

    def spend(self, amount: int = 1, *, scene: str | None = None) -> Adversity:
        """WCBH-21: the GM spends Adversity (to overcome villains' Flaws, to create problems),
        from the Issue's pool or from ``scene``'s own pool."""
        if amount < 1:
            raise InvalidInput("spend at least 1", field="amount", rule="WCBH-21")
        if scene is None:
            if amount > self.pool:
                raise InvalidInput(f"{self.pool} Adversity left", field="amount", rule="WCBH-21")
            return replace(self, pool=self.pool - amount)
        left = self.scene_pool(scene)
        if scene not in dict(self.scenes) or amount > left:
            raise InvalidInput(
                f"{left} Adversity left in the Scene's pool", field="amount", rule="WCBH-21"
            )
        pools = tuple((s, n - amount if s == scene else n) for s, n in self.scenes)
        return replace(self, scenes=pools)

    def villainous_deed(self, *, scene: str | None = None) -> Adversity:
        """WCBH-21: once per Issue the main villain's unstoppable villainous deed. Ruling: it costs
        1 Adversity, like any other spend."""
        if self.deed_done:
            raise InvalidInput(
                "the villainous deed is once per Issue", field="deed", rule="WCBH-21"
            )
        return replace(self.spend(1, scene=scene), deed_done=True)

"""The verbs of each area of play, one mixin per module, combined in `domain.application.Chronicle`.

- `base`: the boundary hooks (page, scene, game Issue) and `Loaded`, the aggregates one command touched.
- `resolve`: Resolve spends, last gasp, Adversity pools, Decisive Moment aftermath (WCBH-16..21).
- `scene_play`: help, group checks, contests, chases, recovery, shaking off and extending effects,
  back in the fight (WCBH-10..14, 27, 34, 37..39).
- `fight`: the page's actions and the attack maneuvers (WCBH-25, 40..47).
- `missions`: missions and their counters (CD-21..25; usable in any ruleset).
"""

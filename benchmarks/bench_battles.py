"""Battles per second in --runs mode for each bundled battle, and the wfb8 duel beside a
plain-Python simulation of the same duel: both speeds, and both outcomes over the same
number of runs, to show it is the same duel. Prints; asserts nothing.

    python benchmarks/bench_battles.py [RUNS] [--pairs P] [--duels N]

Each bundled battle runs for about BUDGET seconds; the duel comparison runs RUNS duels
(default 4000) under rules-run and under plain_duel. Then what issue #18's acceptance asks,
in CPU time: P interleaved pairs (default 5) of N duels (default 20,000) under rules-run
(as ``--runs`` fights them: :func:`rules_run.engine.stats.run_many` in one process) and
under the plain simulation, the median of the pairs' speed ratios; and the bundled pitched
battles' battles/s (specialised to the battle, as ``--runs`` fights them), the median of P
timings of about BUDGET CPU seconds each. ``RULES_RUN_SPECIALISE=0`` times them without.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from rules_run.chance import derive_seed
from rules_run import open_battle
from rules_run.editions.loader import load_ruleset
from rules_run.editions.registry import bundled_editions
from rules_run.engine.driver import run_battle
from rules_run.engine.setup import specialised
from rules_run.engine.stats import RunSpec, run_many

DUEL = "rulesets/wfb8/battles/duel.yaml"
BUDGET = 1.5
"""Seconds each bundled battle is timed for (at least one run after the first)."""


def battles_per_second(edition: str, battle: str) -> tuple[float, float]:
    _, runtime, fight = open_battle(edition, battle)
    t = time.perf_counter()
    run_battle(runtime, fight, seed=derive_seed(1, "run", 0), keep_events=False)
    first = time.perf_counter() - t
    runs = 0
    t = time.perf_counter()
    while runs == 0 or time.perf_counter() - t < BUDGET:
        runs += 1
        run_battle(runtime, fight, seed=derive_seed(1, "run", runs), keep_events=False)
    return runs / (time.perf_counter() - t), first


# ---------------------------------------------------------------- the duel in plain Python
TABLE_DEPTH = 48.0
GAP = 4.0
FILES = 5


class Block:
    """One unit of the duel: a block of models five files wide on the table's centre line.

    ``y`` is its centre along the line joining the two units (the units never leave it);
    ``facing`` is +1 or -1, the way its front points along that line. The two start GAP
    inches apart about the table's centre, facing each other."""

    __slots__ = ("models", "base", "y", "facing", "champion", "points", "wound_on", "enemy_save",
                 "fleeing", "rallied", "charged", "declared", "standard_taken", "gone")

    def __init__(self, base_mm: float, facing: int, champion: bool, points: int,
                 wound_on: int, enemy_save: int) -> None:
        self.models = 20
        self.base = base_mm / 25.4
        self.facing = facing
        self.y = TABLE_DEPTH / 2 - facing * (GAP / 2 + self.depth() / 2)
        self.champion = champion
        self.points = points
        self.wound_on = wound_on          # what its blows need to wound the enemy
        self.enemy_save = enemy_save      # the enemy's armour save against its blows
        self.fleeing = self.rallied = self.charged = self.declared = False
        self.standard_taken = self.gone = False

    def depth(self) -> float:
        return math.ceil(self.models / min(FILES, self.models)) * self.base

    def faces(self, other: Block) -> bool:
        return (other.y > self.y) == (self.facing > 0)

    def turn_to(self, other: Block) -> None:
        self.facing = 1 if other.y > self.y else -1

    def standard(self) -> bool:
        """Command models die last: rank and file, then musician, standard, champion."""
        return self.models > self.champion

    def musician(self) -> bool:
        return self.models > self.champion + 1


def plain_duel(rng: random.Random) -> tuple[str | None, int, int]:
    """The wfb8 reference duel (20 Halberdiers against 20 Orc Boyz, 4" apart, the Orcs first,
    six game rounds) written directly in Python. Returns the winner ("orcs", "empire" or None
    for a draw) and the Halberdiers' and the Orcs' models left.

    It applies what the wfb8 ruleset applies to these two units with its default policy:
    - Charge: a unit not fleeing or fighting charges an enemy in its front within 8"
      (M + 4, the policy; 1-model units only charge 1-model units); the charge roll is
      M + the higher of 2D6; short, it moves that die toward the enemy (never into contact).
      The charged unit holds, or flees 2D6" again if it is fleeing; a charge that reaches
      a fleeing unit runs it down (2 Wounds per charging model, no saves).
    - Rallying in the Compulsory Moves: 2D6 against Ld 7 (4 at a quarter of its models or
      less), a musician re-rolling; a rallied unit keeps its back to the enemy and does not
      move that turn; failing, it flees 2D6" on.
    - Remaining moves: march 8" toward the enemy if more than 12" away, else advance 4";
      stop 1" short; hold while the enemy flees. Moving turns a unit to face the enemy.
    - Close combat in both players' turns: Initiative order (Halberdiers I3 first, Orcs I2
      with the survivors); the front rank and one supporting rank, each model 1 Attack, the
      Halberdiers' champion one more; a unit with the enemy in its rear fights with one
      model per rank (plus the champion). Hit on 4+; wound on 4+ (halberd S4 against T4, S3
      against T3); Orcs save 5+ (light armour, shield, parry, -1 for S4), Halberdiers 6+.
    - Combat result: wounds, charge +1, ranks of five behind the first (at most +3),
      outnumbering +1, standard +1, rear +2; the musician wins a draw if the other side has
      none. A unit with an enemy of 10+ models in its rear is Disrupted: no ranks, no
      Steadfast.
    - Break test: 2D6 against Ld 7 less the margin, or unmodified when Steadfast (more
      models, 10 or more, not Disrupted). A unit that holds with the enemy in its rear
      turns to face it on a Leadership test less the margin (none if Steadfast), the
      champion re-rolling; the winner turns freely.
    - Flight and pursuit: the loser flees 2D6" away, the winner always pursues 2D6"; equal
      or more catches it (2 Wounds per pursuer, no saves); the pursuer stops 1" short. A
      unit fleeing off the 48"-deep table is destroyed; a standard bearer slain in combat
      or run down is taken.
    - The battle ends after a player turn in which a unit is destroyed, else after six game
      rounds; victory points decide it: a destroyed unit gives its points (135 and 130), a
      fleeing one 3/4 at half strength or less, else 1/2; a unit at half strength or less
      1/2; +25 for a standard taken. Equal points are a draw.
    Positions follow the ruleset's geometry: a unit's depth shrinks from both ends around
    its centre as it loses ranks, so gaps after a break are a little more than the dice.
    Only what these two units never meet here is left out: shooting, magic, Panic, Fear,
    challenges (champions fight none by default) and other units.
    """
    randint = rng.randint
    # Halberdiers: 20 mm bases, champion, S4 halberds (Orcs save 5+); Orcs: 25 mm bases,
    # S3 (Halberdiers save 6+)
    halb = Block(20, +1, True, 135, 4, 5)
    orcs = Block(25, -1, False, 130, 4, 6)
    engaged = False

    def gap(a: Block, b: Block) -> float:
        if engaged:
            return 0.0
        return round(abs(a.y - b.y) - (a.depth() + b.depth()) / 2, 9)

    def move_toward(u: Block, e: Block, inches: float) -> None:
        u.turn_to(e)
        u.y += u.facing * min(inches, gap(u, e))

    def move_away(u: Block, e: Block, inches: int) -> None:
        nonlocal engaged
        engaged = False
        u.facing = -1 if e.y > u.y else 1
        u.y += u.facing * inches
        r = min(FILES, u.models) * u.base / 2
        if not r <= u.y <= TABLE_DEPTH - r:
            u.models = 0
            u.gone = True

    def flee(u: Block, e: Block) -> None:
        u.fleeing = True
        move_away(u, e, randint(1, 6) + randint(1, 6))

    def wound(u: Block, wounds: int) -> None:
        had = u.standard()
        u.models = max(0, u.models - wounds)
        if had and not u.standard():
            u.standard_taken = True
        if u.models == 0:
            u.gone = True

    def blows(u: Block, e: Block) -> int:
        if u.faces(e):
            front = min(u.models, FILES)
            attacks = front + min(u.models - front, FILES)
        else:
            attacks = math.ceil(u.models / FILES)
        attacks += u.champion
        damage = 0
        for _ in range(attacks):
            if (randint(1, 6) >= 4 and randint(1, 6) >= u.wound_on
                    and randint(1, 6) < u.enemy_save):
                damage += 1
        return damage

    def result(u: Block, e: Block, wounds: int, disrupted: bool) -> int:
        score = wounds + u.charged + (u.models > e.models) + u.standard()
        if not disrupted and u.models >= 10:
            score += min(3, u.models // FILES - 1)
        if not e.faces(u):
            score += 2
        return score

    def fight() -> None:
        nonlocal engaged
        # Initiative order: the Halberdiers (I3) strike, then the Orcs (I2) that are left
        on_orcs = blows(halb, orcs)
        wound(orcs, on_orcs)
        if orcs.gone:
            return
        on_halb = blows(orcs, halb)
        wound(halb, on_halb)
        if halb.gone:
            return
        h_disrupted = orcs.models >= 10 and not halb.faces(orcs)
        o_disrupted = halb.models >= 10 and not orcs.faces(halb)
        score_h = result(halb, orcs, on_orcs, h_disrupted)
        score_o = result(orcs, halb, on_halb, o_disrupted)
        if score_h == score_o:
            score_h += halb.musician() and not orcs.musician()
            score_o += orcs.musician() and not halb.musician()
        if score_h == score_o:    # a draw: both may turn to face (combat reform)
            halb.turn_to(orcs)
            orcs.turn_to(halb)
            return
        loser, winner, disrupted = ((halb, orcs, h_disrupted) if score_o > score_h
                                    else (orcs, halb, o_disrupted))
        steadfast = not disrupted and loser.models > winner.models and loser.models >= 10
        penalty = 0 if steadfast else abs(score_h - score_o)
        if randint(1, 6) + randint(1, 6) <= 7 - penalty:      # the Break test
            # combat reforms: the winner turns to face freely, the loser on a Leadership test
            winner.turn_to(loser)
            if not loser.faces(winner) and (
                    randint(1, 6) + randint(1, 6) <= 7 - penalty
                    or loser.champion and randint(1, 6) + randint(1, 6) <= 7 - penalty):
                loser.turn_to(winner)
            return
        flee_roll = randint(1, 6) + randint(1, 6)
        pursuit = randint(1, 6) + randint(1, 6)
        loser.fleeing = True
        engaged = False
        if pursuit >= flee_roll:
            wound(loser, 2 * winner.models)
        if not loser.gone:
            move_away(loser, winner, flee_roll)
        if not loser.gone:
            move_toward(winner, loser, max(0.0, min(pursuit, gap(winner, loser) - 1)))

    for _ in range(6):
        for u, e in ((orcs, halb), (halb, orcs)):
            # Movement: charges
            if not u.fleeing and not engaged:
                needed = gap(u, e)
                if u.faces(e) and needed <= 8 and (u.models > 1 or e.models <= 1):
                    u.declared = True
                    if e.fleeing:
                        flee(e, u)
                    if not e.gone:
                        needed = gap(u, e)
                        reach = 4 + max(randint(1, 6), randint(1, 6))
                        if reach < needed:
                            move_toward(u, e, min(reach - 4, needed - 1))
                        elif e.fleeing:
                            move_toward(u, e, max(0.0, needed - 1))
                            wound(e, 2 * u.models)
                        else:
                            move_toward(u, e, needed)
                            engaged = u.charged = True
            # Movement: rallying
            if u.fleeing:
                needed = 4 if u.models * 4 <= 20 else 7
                if (randint(1, 6) + randint(1, 6) <= needed
                        or u.musician() and randint(1, 6) + randint(1, 6) <= needed):
                    u.fleeing = False
                    u.rallied = True
                else:
                    flee(u, e)
            # Movement: remaining moves
            if not (u.fleeing or u.declared or u.rallied or engaged or e.fleeing):
                distance = gap(u, e)
                if u.models > 1:
                    step = 8 if distance > 12 else 4
                else:
                    step = 0 if distance <= 12 else 4
                step = max(0.0, min(step, distance - 1))
                if step > 0:
                    move_toward(u, e, step)
            # Close combat
            if engaged:
                fight()
            for x in (u, e):
                x.rallied = x.charged = x.declared = False
            if halb.gone or orcs.gone:
                break
        if halb.gone or orcs.gone:
            break

    def given(u: Block) -> int:
        """Victory points the unit gives the enemy."""
        if u.gone:
            points = u.points
        elif u.fleeing:
            points = u.points * 3 // 4 if u.models * 2 <= 20 else u.points // 2
        else:
            points = u.points // 2 if u.models * 2 <= 20 else 0
        return points + 25 * u.standard_taken

    to_orcs, to_empire = given(halb), given(orcs)
    winner = "orcs" if to_orcs > to_empire else "empire" if to_empire > to_orcs else None
    return winner, halb.models, orcs.models


# ---------------------------------------------------------------- the comparison
def rules_run_duels(runs: int) -> tuple[float, list[tuple[str | None, int, int]]]:
    """Battles per second of rules-run on the duel, and each run's winner and survivors."""
    _, runtime, fight = open_battle("wfb8", DUEL)
    run_battle(runtime, fight, seed=derive_seed(1, "run", 0), keep_events=False)
    outcomes = []
    t = time.perf_counter()
    for i in range(1, runs + 1):
        result = run_battle(runtime, fight, seed=derive_seed(1, "run", i), keep_events=False)
        models = {u.id: u.models for u in result.units}
        outcomes.append((result.winner, models["halberdiers"], models["orcs"]))
    return runs / (time.perf_counter() - t), outcomes


def plain_duels(runs: int) -> tuple[float, list[tuple[str | None, int, int]]]:
    rng = random.Random(1)
    t = time.perf_counter()
    outcomes = [plain_duel(rng) for _ in range(runs)]
    return runs / (time.perf_counter() - t), outcomes


def compare(label: str, a: list[float], b: list[float], percent: bool) -> None:
    """Means of a and b, and whether they differ by at most 4 standard errors."""
    n, m = len(a), len(b)
    mean_a, mean_b = sum(a) / n, sum(b) / m
    var_a = sum((x - mean_a) ** 2 for x in a) / max(1, n - 1)
    var_b = sum((x - mean_b) ** 2 for x in b) / max(1, m - 1)
    sigma = math.sqrt(var_a / n + var_b / m)
    apart = abs(mean_a - mean_b) / sigma if sigma else (0.0 if mean_a == mean_b else math.inf)
    shown = (f"{100 * mean_a:>13.1f}%{100 * mean_b:>13.1f}%" if percent
             else f"{mean_a:>14.2f}{mean_b:>14.2f}")
    verdict = "agrees" if apart <= 4 else "DIFFERS"
    print(f"  {label:<30}{shown}   {verdict} ({apart:.1f} sigma)")


def duel_pairs(duels: int, pairs: int) -> None:
    """The acceptance's duel figure: ``pairs`` interleaved pairs of ``duels`` duels, CPU
    time, rules-run in ``--runs`` mode (one process) against the plain simulation."""
    opened = open_battle("wfb8", DUEL)
    spec = RunSpec("wfb8", DUEL, {}, 1, None)
    run_many(spec, 1, 1, opened=opened)   # the first battle's one-off work left out
    ratios, engine, plain = [], [], []
    for _ in range(pairs):
        t = time.process_time()
        run_many(spec, duels, 1, opened=opened)
        engine.append(duels / (time.process_time() - t))
        rng = random.Random(1)
        t = time.process_time()
        for _ in range(duels):
            plain_duel(rng)
        plain.append(duels / (time.process_time() - t))
        ratios.append(engine[-1] / plain[-1])
    print(f"\nthe wfb8 duel, {pairs} interleaved pairs of {duels} duels (CPU time, medians): "
          f"rules-run --runs {statistics.median(engine):.0f}/s, plain Python "
          f"{statistics.median(plain):.0f}/s: {statistics.median(ratios):.3f}x "
          "(the acceptance asks at least 0.1x)")


PITCHED = {"wfb8": "rulesets/wfb8/battles/battle.yaml",
           "aos4": "rulesets/aos4/battles/battle.yaml"}
"""The pitched battles the acceptance times."""


def pitched_rates(pairs: int) -> None:
    """Battles/s of each pitched battle in CPU time, the median of ``pairs`` timings of
    about BUDGET seconds, interleaved across the battles."""
    opened = {}
    for e, b in PITCHED.items():
        ruleset, runtime, fight = open_battle(e, b)
        opened[e] = (ruleset, specialised(runtime, fight), fight)   # as --runs fights them
    for e, (_, runtime, fight) in opened.items():
        run_battle(runtime, fight, seed=derive_seed(1, "run", 0), keep_events=False)
    rates: dict[str, list[float]] = {e: [] for e in PITCHED}
    seeds = iter(range(1, 1 << 30))
    for _ in range(pairs):
        for e, (_, runtime, fight) in opened.items():
            runs, t = 0, time.process_time()
            while runs == 0 or time.process_time() - t < BUDGET:
                runs += 1
                run_battle(runtime, fight, seed=derive_seed(1, "run", next(seeds)),
                           keep_events=False)
            rates[e].append(runs / (time.process_time() - t))
    for e, found in rates.items():
        print(f"  {PITCHED[e]:<48} {statistics.median(found):8.1f} battles/s (CPU, median "
              f"of {pairs})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=4000)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--duels", type=int, default=20_000)
    args = parser.parse_args()
    runs = args.runs
    print(f"{'battle':<64}{'battles/s':>11}{'first (ms)':>12}")
    for edition_id, folder in bundled_editions().items():
        ruleset = load_ruleset(folder)
        for path in ruleset.battles:
            rel = str(path.relative_to(folder.parent.parent))
            try:
                rate, first = battles_per_second(edition_id, rel)
            except Exception as err:  # a ruleset without a turn structure yet
                print(f"{rel:<64}  not runnable: {str(err).splitlines()[0]}")
                continue
            print(f"{rel:<64}{rate:>11.0f}{1000 * first:>12.1f}")
    duel_rate, engine = rules_run_duels(runs)
    plain_rate, plain = plain_duels(runs)
    print(f"\n{f'the wfb8 duel, {runs} runs each':<32}{'rules-run':>14}{'plain Python':>14}")
    print(f"  {'battles/s':<30}{duel_rate:>14.0f}{plain_rate:>14.0f}")
    for side in ("orcs", "empire", None):
        compare(f"{side} wins" if side else "draws", [o[0] == side for o in engine],
                [o[0] == side for o in plain], percent=True)
    for k, unit in ((1, "halberdiers"), (2, "orcs")):
        compare(f"{unit} survivors (mean)", [o[k] for o in engine], [o[k] for o in plain],
                percent=False)
    print(f"rules-run runs the wfb8 duel at {duel_rate / plain_rate:.3f}x plain Python's speed "
          "(the aim is at least 0.25x)")
    if args.pairs and args.duels:
        duel_pairs(args.duels, args.pairs)
        pitched_rates(args.pairs)


if __name__ == "__main__":
    main()

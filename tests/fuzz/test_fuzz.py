"""The fuzz suite, bounded for CI (about a minute): generated and mutated rule files, tables,
unit files, battle files and command lines each end in exit 0, or 1 with an ``error:``
message (2 for a wrong command line), never in a traceback or past the time limit.

The same harness runs for longer with ``python tests/fuzz/fuzz_long.py --cases 10000``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz.harness import KINDS, STRATEGIES, Case, Outcome, run_case, verdict, warm_up

EXAMPLES = 30
"""Cases per kind: five kinds at about 0.2 s a case."""


@pytest.fixture(scope="module", autouse=True)
def warmed() -> None:
    warm_up()


def _explain(outcome: Outcome) -> str:
    return (f"{outcome.problem} after {outcome.seconds:.1f} s: {' '.join(outcome.case.argv)}\n"
            f"files: {[rel for rel, _ in outcome.case.files]}\n{outcome.err[-3000:]}")


@pytest.mark.parametrize("kind", KINDS)
def test_no_input_gives_a_traceback_a_hang_or_a_bad_exit(kind: str, tmp_path_factory) -> None:
    count = iter(range(10 ** 6))

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(STRATEGIES[kind]())
    def one(case: Case) -> None:
        outcome = run_case(case, tmp_path_factory.mktemp("case") / str(next(count)))
        assert outcome.problem is None, _explain(outcome)

    one()


def test_the_verdict_tells_the_problems_apart() -> None:
    case = Case("battles", ("rules-run",))
    lines = Case("command lines", ("rules-run",))

    def of(case: Case, code: int | None, err: str) -> str | None:
        return verdict(Outcome(case, code, "", err, 0.0, None))

    assert of(case, 0, "") is None
    assert of(case, 1, "b.yaml:3:4: error: unknown profile 'x'\n") is None
    assert of(case, 1, "error: unknown edition 'wfb9'\n") is None
    assert of(case, 1, "something went wrong\n") == "no message"
    assert of(case, 2, "rules-run: error: argument --runs: ...\n") == "bad exit"
    assert of(lines, 2, "rules-run: error: argument --runs: ...\n") is None
    assert of(case, 70, "internal error: ValueError: x\n") == "traceback"
    assert of(case, 3, "") == "bad exit"

"""The replay of a battle: the table drawn step by step from its JSON Lines event log.

It reads only the event log (``rules-run --log``), never the engine's state: every position,
footprint and shape it draws is in the events (docs/event-log.md).

- :mod:`rules_run.replay.steps`: the log read and checked, and the battle cut into steps
  (the start, every move, charge, flight, casualty, ...), each with the table as it stands;
- :mod:`rules_run.replay.draw`: the table as SVG (terrain, units as their footprints,
  arrows and lines);
- :mod:`rules_run.replay.page`: one self-contained HTML page stepping through the battle.
"""

"""The battle's builtins: plain functions in one table, :data:`BUILTINS`.

Each is registered under its name by the decorator
:func:`~rules_run.engine.builtins.registry.builtin` in a module of its theme, and called as
``fn(state, env, span, *args, **named)``; generated rule code calls them directly
(:mod:`rules_run.runtime.codegen`). Their signatures, as the checker knows them, are in
:mod:`rules_run.lang.builtins`; a test holds the two to the same names.

- :mod:`~rules_run.engine.builtins.units`: who is in the battle, damage, reserves;
- :mod:`~rules_run.engine.builtins.movement`: distance, contact, moves, wheels, attachment;
- :mod:`~rules_run.engine.builtins.battle`: statuses, counters, victory, chance, decisions;
- :mod:`~rules_run.engine.builtins.fight`: attacks by a declared sequence;
- :mod:`~rules_run.engine.builtins.sight`: range, line of sight, cover, terrain;
- :mod:`~rules_run.engine.builtins.objectives`: objectives, features, control;
- :mod:`~rules_run.engine.builtins.markers`: markers and templates, headings;
- :mod:`~rules_run.engine.builtins.placement`: moves along a heading, placing units, and
  bringing a destroyed unit back;
- :mod:`~rules_run.engine.builtins.shapes`: where units stand, shared by the above.
"""

from rules_run.engine.builtins import (battle, fight, markers, movement, objectives,
                                       placement, sight, units)
from rules_run.engine.builtins.registry import BUILTINS, builtin

__all__ = ["BUILTINS", "builtin",
           # the themes, imported so that their builtins are registered
           "battle", "fight", "markers", "movement", "objectives", "placement", "sight", "units"]

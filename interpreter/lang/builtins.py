"""The generic vocabulary every ruleset can use without declaring it.

These are the kernel's words (numbers, dice, units, sides, models, distances), never a
game's. The checker uses the signatures here; the compiler and the engine supply the
implementations under the same names.
"""

from __future__ import annotations

from rules_run import slotted

__all__ = [
    "Builtin", "BUILTIN_FUNCTIONS", "BUILTIN_NAMES", "NAME_TYPES", "UNIT_PROPERTIES",
    "PROPERTY_TYPES", "EVENTS", "READINGS", "SHARES",
]

READINGS = ("touched", "centre", "whole")
"""How a model counts as under a marker's shape: some part of its base, the centre of its
base, or all of its base (``models_under``, ``units_under``)."""

SHARES = ("all", "more than half", "half or more", "at least one")
"""How many of a unit's models (its joined units' too) must carry a rule for ``share``:
every one ("entirely", "solely"), more than half, half or more, at least one."""


@slotted.frozen
class Builtin:
    """A builtin function's signature."""

    name: str
    min_args: int
    max_args: int | None
    """None: any number of arguments."""
    doc: str
    keywords: bool = False
    """Takes ``name = value`` arguments too (``fight`` passes them to the sequence)."""
    params: tuple[str, ...] = ()
    """The type each argument must have (:mod:`rules_run.lang.types`): ``any`` takes
    anything, ``unit|weapon`` either."""
    variadic: bool = False
    """Written ``type...``: the last parameter's type applies to every further argument
    (without it, further arguments take anything)."""
    returns: str = "any"
    """The type of the result; ``item``: an item of the list given as the first argument."""
    choices: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """(argument index from 0, the texts it may be): a text written there that is none of
    them is reported when the rules are checked."""

    def arity_text(self) -> str:
        """How many arguments it takes, for messages."""
        if self.max_args is None:
            return f"at least {self.min_args}"
        if self.min_args == self.max_args:
            return str(self.min_args)
        return f"{self.min_args} to {self.max_args}"

    def param_type(self, index: int) -> str:
        """The type the argument at ``index`` (from 0) must have."""
        if index < len(self.params):
            return self.params[index]
        return self.params[-1] if self.variadic and self.params else "any"


def _b(name: str, lo: int, hi: int | None, signature: str, doc: str, keywords: bool = False,
       choices: tuple[tuple[int, tuple[str, ...]], ...] = ()) -> tuple[str, Builtin]:
    """A builtin from its ``signature``: ``"unit, number -> int"``."""
    params, _, returns = signature.partition("->")
    types = tuple(t.strip() for t in params.split(",") if t.strip())
    variadic = bool(types) and types[-1].endswith("...")
    if variadic:
        types = types[:-1] + (types[-1][:-3],)
    return name, Builtin(name, lo, hi, doc, keywords, types, variadic, returns.strip(), choices)


BUILTIN_FUNCTIONS: dict[str, Builtin] = dict(
    [
        # numbers
        _b("min", 1, None, "any... -> any", "the smallest argument (or of one list)"),
        _b("max", 1, None, "any... -> any", "the largest argument (or of one list)"),
        _b("clamp", 3, 3, "number, number, number -> number", "clamp(x, low, high)"),
        _b("abs", 1, 1, "number -> number", "absolute value"),
        _b("half_up", 1, 1, "number -> int", "half, rounding up (7 → 4)"),
        _b("half_down", 1, 1, "number -> int", "half, rounding down (7 → 3)"),
        _b("round_up", 1, 1, "number -> int", "the whole number at or above it (13.5 → 14)"),
        _b("count", 1, 1, "list -> int", "the number of items in a list"),
        _b("sum", 1, 1, "list -> number", "the sum of a list of numbers"),
        _b("numbers", 2, 2, "int, int -> list:int",
           "numbers(low, high): the whole numbers from low to high, both included"),
        _b("any", 1, 1, "list -> bool", "true when any item of the list is true"),
        _b("all", 1, 1, "list -> bool", "true when every item of the list is true"),
        # chance
        _b("roll_off", 2, 4, "any, any, number, number -> any",
           "roll_off(a, b[, bonus_a, bonus_b]): the winner; ties are re-rolled"),
        _b("random_pick", 1, 1, "list -> item", "one item of a list, chosen at random"),
        # data
        _b("key_values", 2, 2, "any, text -> list",
           'key_values(table, "key"): the values a key of a table takes, in its file\'s order'),
        _b("value_of", 2, 2, "any, text -> any",
           'value_of(x, "name"): a named value from its data (none if absent)'),
        _b("command_value", 3, 3, "unit, text, text -> any",
           'command_value(unit, "champion", "A"): a command model\'s characteristic'),
        _b("unmodified", 2, 2, "any, text -> any",
           'unmodified(x, "NAME"): the characteristic as its profile gives it, before '
           "equipment and rule effects"),
        _b("alternatives", 2, 2, "unit, text -> list",
           'alternatives(u, "group"): the ids of its items of that alternative group'),
        _b("wielded", 2, 2, "unit, text -> text",
           'wielded(u, "group"): the id of its item of that group in use'),
        _b("item_values", 2, 2, "any, text -> list",
           'item_values(x, "name"): the values its equipment gives under that name'),
        # rule parameters
        _b("param", 2, 3, "any, text, int -> any",
           'param(x, "Rule"[, index]): a parameter of the first such rule x carries'),
        _b("params", 2, 3, "any, text, int -> list",
           'params(x, "Rule"[, index]): that parameter of every such rule x carries'),
        _b("unaffected", 2, 2, "any, text -> bool",
           'unaffected(x, "NAME"): a rule x carries makes it unaffected by friendly gains to '
           'that roll or characteristic'),
        # battle state (the engine implements these)
        _b("wield", 2, 2, "unit, text -> bool",
           "wield(u, item): it uses that item of its alternative group, not the others"),
        _b("sides", 0, 0, "-> list:side", "every side, in battle-file order"),
        _b("opponent", 1, 1, "side -> side", "the other side"),
        _b("picked_last", 0, 0, "-> side",
           "the side whose unit acted last in an activate of this phase, or none"),
        _b("units", 0, 1, "side -> list:unit", "units on the table (of one side)"),
        _b("all_units", 0, 0, "-> list:unit",
           "every unit of the battle, destroyed or fled ones too"),
        _b("enemies", 1, 1, "unit -> list:unit", "units of the other side(s) still on the table"),
        _b("friends", 1, 1, "unit -> list:unit",
           "other units of the same side still on the table"),
        _b("models", 1, 1, "unit -> int", "how many models of a unit are still alive"),
        _b("best", 2, 2, "unit, text -> any",
           "best(unit, characteristic): the highest value among its models"),
        _b("distance", 2, 2, "unit, unit -> number", "edge-to-edge distance in inches"),
        _b("within", 3, 3, "unit, unit, number -> bool",
           "within(a, b, inches): edge-to-edge distance is at most inches"),
        _b("in_contact", 2, 2, "unit, unit -> bool", "the two units are in base contact"),
        _b("arc", 2, 2, "unit, unit -> text",
           'arc(a, b): the arc of b that a is in ("front", "flank", "rear")'),
        _b("move_toward", 3, 4, "unit, unit, number, list -> number",
           "move_toward(unit, other, inches[, avoid]): move straight at it (never into one of "
           "avoid, units and terrain pieces); the inches moved"),
        _b("in_the_way", 3, 3, "unit, unit, list -> list",
           "in_the_way(unit, other, obstacles): those of the obstacles (units, terrain pieces) "
           "its straight move at other until contact would enter, nearest first"),
        _b("ground_reach", 8, 9, "unit, unit, number, number, list, number, list, number, number -> number",
           "ground_reach(unit, other, inches, most, slow, rate, obstacles, cost[, step]): how "
           "far its straight move at other goes for inches of move, never past most: at rate "
           "over the slow pieces, paying cost to be placed past each of obstacles"),
        _b("move_away", 3, 5, "unit, unit, number, number, list -> number",
           "move_away(unit, other, inches[, clear_of[, past]]): move straight away (with "
           "clear_of, on until that far from every other unit and each of past, terrain "
           "pieces); the inches moved"),
        _b("passed_through", 1, 2, "unit, list -> list:unit",
           "passed_through(unit[, among]): the units (with among, those of among: units, "
           "terrain pieces) its last straight move passed through"),
        _b("engage", 2, 3, "unit, unit, text -> bool",
           "engage(unit, other[, arc]): put the units in base contact"),
        _b("wheel", 2, 3, "unit, number, number -> number",
           "wheel(unit, degrees[, most]): turn it about a front corner (the right one for a wheel "
           "to the right, degrees > 0), by less if its outer front corner would travel more than "
           "most inches; the inches that corner travelled"),
        _b("align", 2, 4, "unit, unit, text, list -> bool",
           "align(unit, other[, side[, avoid]]): its front (flank, rear) flush against the edge "
           "of other it stands before, as much of both touching as can (false, not moving, "
           "when the way there overlaps one of avoid)",
           choices=((2, ("front", "flank", "rear")),)),
        _b("disengage", 1, 1, "unit -> bool", "take the unit out of every combat"),
        _b("engaged_with", 1, 1, "unit -> list:unit", "the units in base contact with this one"),
        _b("engaged_group", 1, 1, "unit -> list:unit",
           "the unit and every unit joined to it by base contact, directly or through others (a "
           "multiple combat): the unit first, then those nearer it in contact first"),
        _b("apply", 2, 3, "status, unit|weapon|part|group, text -> bool",
           "apply(status, thing[, until]): give it a status"),
        _b("clear", 2, 2, "status, unit|weapon|part|group -> bool", "clear(status, thing): remove a status"),
        _b("counter", 1, None, "counter, any... -> any",
           "counter(name, key, ...): the counter's current value for those keys"),
        _b("add_counter", 2, None, "counter, any... -> any",
           "add_counter(name, key, ..., amount): adds to it; its new value"),
        _b("set_counter", 2, None, "counter, any... -> any",
           "set_counter(name, key, ..., value): sets it; its new value"),
        _b("counter_values", 1, 1, "counter -> list",
           "counter_values(name): the counter's values that are set (other than its initial "
           "value), in the order of their keys"),
        _b("inflict", 2, 3, "unit|group, number, any -> int",
           "inflict(unit, damage[, saves]): remove models for that damage (of a group: its "
           "models; of a unit with groups: off its groups in data order)"),
        _b("destroy", 1, 1, "unit -> bool",
           "remove the unit from the battle (units attached to it stay, detached)"),
        _b("attach", 2, 2, "unit, unit -> bool",
           "attach(a, b): a moves with b (a character joined to a unit): it stands in b's place, "
           "goes where b goes and is in b's fights"),
        _b("detach", 1, 1, "unit -> bool", "detach(a): a moves on its own again"),
        _b("unit_named", 1, 1, "text -> unit",
           "unit_named(id): the unit with that id in the battle file"),
        _b("set_aside", 1, 1, "unit -> bool",
           "take the unit off the table without destroying it (reserves)"),
        _b("arrive", 1, 4, "unit, number, number, number -> bool",
           "arrive(unit[, edge[, along[, keep_away]]]): put a unit set aside back on the table, "
           "where the battle file places it, or facing in at a table edge (the heading it "
           "faces: 0, 90, 180, 270), along it and no nearer another unit than keep_away"),
        _b("home_edge", 1, 1, "unit -> number",
           "home_edge(unit): the edge (the heading facing in) of the long table edge nearest "
           "where the battle file places it"),
        # moves along a heading, placing units, coming back (engine/builtins/placement.py)
        _b("toward_edge", 1, 1, "number -> number",
           "toward_edge(edge): the heading straight at that table edge (named by the heading a "
           "unit coming on there faces: 0, 90, 180, 270)"),
        _b("side_edge", 1, 1, "side -> number",
           "side_edge(side): the side's own table edge (the heading facing in): the battle "
           "file's battlefield edges, else the long edge nearest its units' positions"),
        _b("move_along", 3, 4, "unit, number, number, number -> number",
           "move_along(unit, heading, inches[, clear_of]): turn to the heading and move along "
           "it (with clear_of, on until that far from every other unit); meeting a table edge, "
           "it leaves the table there; the inches moved"),
        _b("place", 2, 6, "unit, any, number, number, number, list -> bool",
           "place(unit, at[, heading[, within[, clear_of[, of]]]]): put a unit that is off the "
           "table at the point (or the nearest spot within that far of it), wholly on the "
           "table, on no unit, clear_of that far from every other unit (or those of the list "
           "of); false when it cannot be"),
        _b("home_marker", 1, 1, "unit -> text",
           "home_marker(unit): a new marker where the battle file places the unit; its id"),
        _b("restore", 1, 3, "unit, number, number -> int",
           "restore(unit[, models[, wounds]]): a destroyed unit comes back off the table, with "
           "that many models (all), the wounded one with that many wounds left (all); its "
           "models"),
        _b("play_turn", 1, 1, "side -> any",
           "play_turn(side): one player turn of that side (the battle's turn block)"),
        _b("used", 1, None, "action, any... -> bool",
           "used(action, args...): an action declared 'once per ...' has run for those "
           "arguments in this period"),
        _b("decide", 1, None, "decision, any... -> any",
           "decide(decision, args...): the option a side chooses"),
        _b("fight", 3, 4, "sequence, unit, unit, number -> int",
           "fight(sequence, attacker, target[, attacks], name = value...): resolve attacks; named"
           " arguments go to the sequence's parameters of those names", keywords=True),
        _b("heal", 2, 2, "unit, number -> int",
           "heal(unit, points): remove damage points from its wounded model"),
        _b("return_models", 2, 2, "unit, number -> int",
           "return_models(unit, n): slain models come back, up to its starting number"),
        _b("score_points", 2, 2, "side, number -> int",
           "score_points(side, points): add victory points"),
        _b("win", 2, 2, "side, text -> bool",
           "win(side, reason): that side wins, whatever the victory points (nobody: a draw); "
           "no further turn is played; the first call decides"),
        _b("points_of", 1, 1, "unit -> int", "the points value of a unit"),
        _b("wounds_lost", 1, 1, "unit -> int", "damage the unit has taken, in wounds"),
        _b("starting_models", 1, 1, "unit -> int", "the models the unit began the battle with"),
        _b("weapons", 1, 2, "unit|part|group, text -> list:weapon",
           "the weapons of a unit, a part of its models or a group of them (of one kind)"),
        _b("part", 2, 2, "unit, text -> part",
           'part(u, "name"): the part of its models of that name (rider, mount), or none'),
        _b("parts", 1, 1, "unit -> list:part", "the parts of a unit's models, in data order"),
        _b("groups", 1, 1, "unit -> list:group",
           "the groups of a unit's models, in data order (none: its models are alike)"),
        _b("ranks", 1, 1, "unit -> int", "complete ranks of the unit"),
        _b("share", 3, 3, "unit, text, text -> bool",
           'share(u, "RULE", "more than half"): whether that share of the models of u and of '
           'the units joined to it ("all", "more than half", "half or more", "at least one") '
           "carries the rule", choices=((2, SHARES),)),
        # objectives and control (interpreter/engine/objectives.py)
        _b("objectives", 0, 0, "-> list:text", "the objective markers' ids, in battle-file order"),
        _b("features", 0, 1, "text -> list:text",
           "features([effect]): the terrain features' ids (those with that rule in effects)"),
        _b("place_distance", 2, 2, "unit, text -> number",
           "place_distance(unit, place): inches from the unit's edge to an objective or feature"),
        _b("models_within", 3, 3, "unit, text, number -> int",
           "models_within(unit, place, inches): its models with a base within that of the place"),
        _b("models_wholly_on", 2, 2, "unit, text -> int",
           "models_wholly_on(unit, place): its models whose whole base is on the feature"),
        _b("control_score", 4, 4, "text, side, text, number -> int",
           "control_score(place, side, characteristic, inches): the side's models within that of "
           "the place, each counting its characteristic"),
        _b("controller", 1, 1, "text -> side",
           "controller(place): the side that controls the place, or none"),
        _b("set_controller", 2, 2, "text, side -> bool",
           "set_controller(place, side): record who controls it (none: nobody); true if new"),
        _b("move_to", 3, 4, "unit, text, number, number -> number",
           "move_to(unit, place, inches[, keep_away]): move straight at the place, never nearer "
           "an enemy unit than keep_away"),
        _b("victory_points", 1, 1, "side -> int",
           "victory_points(side): the side's victory points so far"),
        # range, sight and cover (interpreter/engine/sight.py)
        _b("in_arc", 2, 2, "unit, any -> bool",
           "in_arc(a, b): b is at least partly inside a's forward arc"),
        _b("in_range", 3, 3, "unit, any, number -> bool",
           "in_range(a, b, inches): the part of b inside a's forward arc comes within inches of a"),
        _b("terrain", 0, 0, "-> list",
           "every terrain piece of the battlefield (its effects are rules it carries)"),
        _b("terrain_at", 1, 1, "unit -> list",
           "terrain_at(u): the terrain pieces under the majority of the unit"),
        _b("terrain_touching", 1, 1, "unit -> list",
           "terrain_touching(u): the terrain pieces some part of the unit lies in"),
        _b("add_terrain", 5, 6, "text, any, number, number, list, text -> any",
           "add_terrain(id, at, width, depth, effects[, kind]): a new terrain piece centred on "
           "a unit, a marker or a place, carrying the effects (rule texts); the piece"),
        _b("move_terrain", 3, 3, "any, number, number -> bool",
           "move_terrain(piece, heading, inches): the piece moves that far along the heading, "
           "with its effects; the units in it stay where they stand"),
        _b("remove_terrain", 1, 1, "any -> bool",
           "remove_terrain(piece): the piece leaves the table, with its effects"),
        _b("between", 2, 2, "unit, unit -> list",
           "between(a, b): the units and terrain pieces across the sight lines from a to the "
           "majority of b"),
        _b("line_through", 3, 3, "unit, unit, any -> number",
           "line_through(a, b, piece): inches of the line from a's front to b's centre inside the"
           " piece"),
        _b("behind", 3, 4, "unit, unit, any, number -> bool",
           "behind(a, b, pieces[, ignore_within]): every straight line from a point of a to a "
           "point of b passes across the piece (one of them), its parts within ignore_within "
           "of a aside"),
        _b("models_behind", 3, 5, "unit, unit, any, number, bool -> int",
           "models_behind(a, b, pieces[, ignore_within[, from_unit]]): a's models from whose "
           "base the line between closest points to every model of b passes across the piece "
           "(one of them), its parts within ignore_within of the model (of a, with from_unit) "
           "aside"),
        _b("visible", 2, 4, "unit, unit, any, bool -> bool",
           "visible(a, b[, pieces[, units]]): some straight line from a point of a to a point "
           "of b passes across none of the pieces and (unless units is false) no other unit"),
        _b("files", 1, 1, "unit -> int", "models in the unit's front rank"),
        _b("space_models", 2, 2, "unit, number -> bool",
           "space_models(unit, inches): its models stand that far apart, across each rank and "
           "between ranks (0: a close-ranked block); its footprint follows"),
        _b("spacing", 1, 1, "unit -> number",
           "spacing(unit): the inches between neighbouring models of the unit"),
        # markers and templates, headings (interpreter/engine/markers.py)
        _b("place_marker", 1, 2, "any, number -> text",
           "place_marker(at[, diameter]): a new marker (a point, or a round template of that "
           "diameter) centred on a unit, a marker or a place; its id"),
        _b("move_marker", 3, 3, "text, number, number -> bool",
           "move_marker(marker, heading, inches): move the whole marker along the heading"),
        _b("stretch_marker", 3, 4, "text, number, number, number -> bool",
           "stretch_marker(marker, heading, length[, end_diameter]): make it a line or a "
           "teardrop, its end that far along the heading"),
        _b("remove_marker", 1, 1, "text -> bool", "remove_marker(marker): take it off the table"),
        _b("on_table", 1, 1, "any -> bool",
           "on_table(at): whether the centre of a unit, a marker or a place is on the table "
           "(a marker scattered off it, a unit in reserve or fled: false)"),
        _b("heading", 2, 2, "any, any -> number",
           "heading(a, b): the heading in degrees from a's centre to b's (units, markers, "
           "places)"),
        _b("facing", 1, 1, "unit -> number", "facing(u): the heading the unit faces"),
        _b("models_under", 2, 3, "unit, text, text -> int",
           'models_under(unit, marker[, reading]): its models under the marker ("touched", '
           '"centre" or "whole")', choices=((2, READINGS),)),
        _b("units_under", 1, 2, "text, text -> list:unit",
           "units_under(marker[, reading]): the units with a model under it, in the order a "
           "line from its start meets them", choices=((1, READINGS),)),
        _b("ranks_under", 2, 2, "unit, text -> int",
           "ranks_under(unit, marker): how many of its ranks have a model under the marker"),
        _b("files_under", 2, 2, "unit, text -> int",
           "files_under(unit, marker): how many of its files have a model under the marker"),
    ]
)

BUILTIN_NAMES: dict[str, str] = {
    "active_side": "the side whose turn it is",
    "round_number": "the current battle round (game turn), from 1",
    "phase_name": "the name of the current phase",
    "nobody": "no side (a draw)",
}

NAME_TYPES: dict[str, str] = {
    "active_side": "side", "round_number": "int", "phase_name": "text", "nobody": "none",
}
"""The type of each builtin name's value."""

# Generic properties of a unit (``u.models``), besides the declared characteristics.
UNIT_PROPERTIES: dict[str, str] = {
    "id": "the unit's id in the battle file (a part's: its name in the unit data, mount)",
    "name": "its display name",
    "side": "the side it belongs to",
    "models": "models still alive (of a group too)",
    "wounds": "wounds (health) left on the unit",
    "keywords": "its keywords",
    "type": "its troop type, as the unit data gives it",
    "on_table": "whether it is still on the battlefield",
    "set_aside": "whether it waits off the table (set_aside), to arrive later",
    "leader": "the unit it is attached to (attach), or none",
    "followers": "the units attached to it",
    "command": "its command models (a mapping: champion, standard, ...)",
    "files": "models in its front rank",
    "starting_models": "models it began the battle with (of a group too)",
    "owner": "(a weapon, a part or a group) the unit, or the part of its models, carrying it",
    "passed": "(a test result) whether it passed",
    "value": "(a roll or test result) the final value",
    "natural": "(a roll or test result) the unmodified total",
}

PROPERTY_TYPES: dict[str, tuple[str, str]] = {
    "id": ("unit|part", "text"),
    "name": ("unit|weapon|part|group", "text"),
    "side": ("unit", "side"),
    "models": ("unit|group", "int"),
    "wounds": ("unit", "int"),
    "keywords": ("unit|weapon|part", "any"),
    "type": ("unit", "text"),
    "on_table": ("unit", "bool"),
    "set_aside": ("unit", "bool"),
    "leader": ("unit", "unit"),
    "followers": ("unit", "list:unit"),
    "command": ("unit", "any"),
    "files": ("unit", "int"),
    "starting_models": ("unit|group", "int"),
    "owner": ("weapon|part|group", "any"),
    "passed": ("result", "bool"),
    "value": ("result", "any"),
    "natural": ("result", "int"),
}
"""Each property's owner (what it is read from: a unit, a weapon, a test's result) and the
type of its value."""

# Engine events a trigger (``when <event>``) can listen to, besides declared names.
EVENTS: dict[str, str] = {
    "start_of_battle": "after set-up, before the first round",
    "start_of_round": "at the start of each battle round",
    "end_of_round": "at the end of each battle round",
    "start_of_turn": "at the start of each player turn",
    "end_of_turn": "at the end of each player turn",
    "start_of_phase": "at the start of each phase",
    "end_of_phase": "at the end of each phase",
    "slain": "a model is removed as a casualty",
    "destroyed": "a unit is removed from the battle",
}

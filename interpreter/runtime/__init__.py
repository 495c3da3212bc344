"""The runtime stage: a checked Ruleset compiled once into a Runtime (rolls, tests,
sequences, actions and rule effects as Python code), which the engine runs.

Modules: ``compiled`` (the Runtime and compile_ruleset), ``codegen`` (the Python source of
expressions and statement blocks), ``rolls``, ``sequences``, ``actions`` (the compiled
declarations), ``effects`` (what rules carried by bearers do), ``builtins`` (the builtins
that need no battle), ``operators``, ``dice``, ``env`` (one evaluation's context and
results), ``entities`` (units, weapons and the rules they carry), ``events`` (the typed records
of what happens in a battle) and ``types`` (the
Protocols through which the runtime reaches the battle, never by import).
"""

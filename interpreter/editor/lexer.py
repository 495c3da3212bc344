"""A Pygments lexer for the rules language, so docs and notebooks highlight ``.rules``
code (```` ```rules ```` fences). It is registered as the ``pygments.lexers`` entry point
``rules``; Pygments (any version with ``RegexLexer``) is imported only when this module is.

The words are the grammar's (``grammar/rules.lark``); a test checks that the lists below
and the grammar agree, and that every bundled rule file lexes without an error token.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

__all__ = ["RulesLexer", "DECLARATION_WORDS", "TYPE_WORDS", "CONSTANT_WORDS", "OTHER_WORDS"]

DECLARATION_WORDS = (
    "ruleset", "extends", "source", "override", "add", "define", "remove", "characteristics",
    "table", "die", "option", "status", "counter", "record", "keyword", "roll", "test", "sequence",
    "action", "case", "decision", "policy", "phase", "rule", "battle",
)
"""Words that start a declaration (or a patch operation on one)."""

TYPE_WORDS = ("int", "bool", "boolean", "number", "text", "unit", "weapon", "side", "list",
              "model", "part", "group")
"""Parameter types and profile kinds."""

CONSTANT_WORDS = ("true", "false", "none")

OTHER_WORDS = (
    "activate", "adds", "all", "alternately", "and", "any", "as", "at", "beyond", "by", "capped",
    "chains", "choose", "count", "damage", "default", "despite", "dice", "divide", "down",
    "during", "each", "elif", "else", "end", "every", "exclusive", "faces", "fail", "failed",
    "fails", "for", "friendly", "from", "gains", "grant", "has", "highest", "holds", "if",
    "ignored", "in", "is", "its", "least", "let", "log", "lowest", "mark", "marked", "max", "min",
    "minimum", "modifier", "modifiers", "modify", "most", "multiply", "natural", "need",
    "needing", "never", "next", "not", "of", "on", "once", "one", "options", "or",
    "ordered", "pass", "passed", "passes", "per", "picking", "point", "quiet", "range",
    "reapplied", "refreshes", "removes", "reroll", "result", "return", "round", "rounding",
    "rounds", "score", "set", "setup", "showing", "simulated", "skip", "stacking", "starting", "step",
    "stop", "stops", "tally", "then", "to", "turn", "unaffected", "until", "up", "value",
    "when", "where", "while", "with",
)
"""Every other word of the grammar."""


class RulesLexer(RegexLexer):
    """The rules language of rules-run (``.rules`` files)."""

    name = "rules-run rules"
    aliases = ["rules", "rules-run", "rules-error"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rules-run"]
    url = "https://github.com/rules-run"

    tokens = {
        "root": [
            (r"[ \t]+", Whitespace),
            (r"\n", Whitespace),
            (r"\\[ \t]*\n", Text),
            (r"#.*?$", Comment.Single),
            (r'"[^"\n]*"', String.Double),
            (r"(@)([ \t]*)([0-9]{3})(?= )", bygroups(Punctuation, Whitespace, Name.Label)),
            (r"@", Punctuation),
            (r"L[0-9]+(-L?[0-9]+)?\b", Name.Label),
            (r"[0-9]*D[0-9]+(x[0-9]+)?(?![A-Za-z0-9_])", Number.Integer),
            (r"[0-9]+\+(?![0-9A-Za-z_(])", Number.Integer),
            (r"[0-9]+\.[0-9]+", Number.Float),
            (r"[0-9]+", Number.Integer),
            (words(DECLARATION_WORDS, suffix=r"\b"), Keyword.Declaration),
            (words(TYPE_WORDS, suffix=r"\b"), Keyword.Type),
            (words(CONSTANT_WORDS, suffix=r"\b"), Keyword.Constant),
            (words(OTHER_WORDS, suffix=r"\b"), Keyword),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"<=|>=|==|!=|\+=|-=|//|\.\.|[-+*/<>=|]", Operator),
            (r"[()\[\],:.]", Punctuation),
        ],
    }

"""``rules-lsp``: the language server, over standard input and output.

It speaks the Language Server Protocol through pygls (the ``lsp`` extra: ``pip install
"rules-run[lsp]"``, imported only when the server starts). The answers come from
:class:`~rules_run.editor.workspace.Workspace`; this module converts positions (the
protocol's are 0-based), paths and URIs, and kinds.

Initialization options: ``{"sources": "<folder>"}``, the folder of the user's copy of the
cited sources (else the ``RULES_RUN_SOURCES`` environment variable).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from rules_run.buffers import read_text
from rules_run.diagnostics import Diagnostic, Severity, Span
from rules_run.editor.workspace import SOURCES_VARIABLE, Workspace

__all__ = ["main", "build_server"]

_RULE_FILES = (".rules", ".yaml", ".yml")


def build_server(workspace: Workspace | None = None) -> Any:
    """A pygls ``LanguageServer`` answering from ``workspace``.

    Raises:
        ImportError: pygls is not installed.
    """
    from lsprotocol import types as lsp
    from lsprotocol.converters import get_converter
    from pygls.lsp.server import LanguageServer
    from pygls.uris import from_fs_path, to_fs_path

    from rules_run import __version__

    work = workspace if workspace is not None else Workspace()
    # Places are built from plain data: the protocol's name for a stretch of text is also a
    # characteristic's name in a bundled ruleset, which interpreter/ never spells.
    structure = get_converter().structure
    server = LanguageServer("rules-lsp", __version__,
                            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
    severities = {Severity.ERROR: lsp.DiagnosticSeverity.Error,
                  Severity.WARNING: lsp.DiagnosticSeverity.Warning,
                  Severity.NOTE: lsp.DiagnosticSeverity.Information}
    symbol_kinds = {"ruleset": lsp.SymbolKind.Module, "characteristics": lsp.SymbolKind.Field,
                    "table": lsp.SymbolKind.Struct, "die": lsp.SymbolKind.Constant,
                    "option": lsp.SymbolKind.Property, "status": lsp.SymbolKind.EnumMember,
                    "counter": lsp.SymbolKind.Variable, "keyword": lsp.SymbolKind.Key,
                    "record": lsp.SymbolKind.Struct,
                    "rule": lsp.SymbolKind.Class, "battle": lsp.SymbolKind.Namespace,
                    "sequence": lsp.SymbolKind.Event}
    completion_kinds = {"keyword": lsp.CompletionItemKind.Keyword,
                        "rule": lsp.CompletionItemKind.Class,
                        "characteristic": lsp.CompletionItemKind.Field,
                        "property": lsp.CompletionItemKind.Property,
                        "builtin": lsp.CompletionItemKind.Function,
                        "profile": lsp.CompletionItemKind.Module,
                        "equipment": lsp.CompletionItemKind.Value}

    def path_of(uri: str) -> str | None:
        path = to_fs_path(uri)
        return path if path is not None and path.endswith(_RULE_FILES) else None

    def to_range(span: Span) -> dict[str, Any]:
        end_line, end_column = span.end_line, span.end_column
        if end_line is None or end_column is None:
            end_line, end_column = span.line, _word_end(span)
        return {"start": {"line": span.line - 1, "character": span.column - 1},
                "end": {"line": end_line - 1, "character": end_column - 1}}

    def place(span: Span) -> dict[str, Any]:
        return {"uri": from_fs_path(os.path.abspath(span.path)) or "", "range": to_range(span)}

    def to_location(span: Span) -> Any:
        return structure(place(span), lsp.Location)

    def to_diagnostic(d: Diagnostic, path: str, elsewhere: list[Diagnostic]) -> Any:
        span = d.span or Span(path, 1, 1, 1, 1)
        message = d.message
        if d.expected:
            message += "\nexpected: " + ", ".join(d.expected)
        if d.hint:
            message += f"\nhint: {d.hint}"
        payload: dict[str, Any] = {"range": to_range(span), "message": message,
                                   "code": d.code, "severity": severities[d.severity],
                                   "source": "rules-check"}
        if d.code == "bad-base":
            # where the base's errors are, so the editor can go there
            payload["relatedInformation"] = [{"location": place(e.span), "message": e.message}
                                             for e in elsewhere if e.span is not None]
        return structure(payload, lsp.Diagnostic)

    def publish(path: str, battles: bool) -> None:
        found = work.check(path, battles=battles)
        for where, diagnostics in sorted(found.items()):
            elsewhere = [d for other, ds in sorted(found.items()) if other != where for d in ds
                         if d.severity is Severity.ERROR]
            server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=from_fs_path(where) or "",
                diagnostics=[to_diagnostic(d, where, elsewhere) for d in diagnostics]))

    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and options.get("sources"):
            from pathlib import Path

            work.sources = Path(str(options["sources"])).expanduser()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None:
            work.set_text(path, params.text_document.text)
            publish(path, battles=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None:
            document = server.workspace.get_text_document(params.text_document.uri)
            work.set_text(path, document.source)
            publish(path, battles=False)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None:
            publish(path, battles=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None:
            work.close(path)
            publish(path, battles=False)

    def at(params: Any) -> tuple[str, int, int] | None:
        path = path_of(params.text_document.uri)
        if path is None:
            return None
        return path, params.position.line + 1, params.position.character + 1

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        where = at(params)
        text = work.hover(*where) if where else None
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(params: lsp.DefinitionParams) -> list[lsp.Location]:
        where = at(params)
        return [to_location(s) for s in work.definition(*where)] if where else []

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(params: lsp.ReferenceParams) -> list[lsp.Location]:
        where = at(params)
        if where is None:
            return []
        found = work.references(*where, declaration=params.context.include_declaration)
        return [to_location(s) for s in found]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=['"', ".", " "]))
    def completion(params: lsp.CompletionParams) -> lsp.CompletionList:
        where = at(params)
        items = [lsp.CompletionItem(label=c.label, detail=c.detail or c.kind,
                                    kind=completion_kinds.get(c.kind,
                                                              lsp.CompletionItemKind.Reference))
                 for c in (work.completion(*where) if where else [])]
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        path = path_of(params.text_document.uri)
        if path is None or not path.endswith(".rules"):
            return []
        return [structure({"name": s.name, "kind": symbol_kinds.get(s.kind,
                                                                    lsp.SymbolKind.Function),
                           "range": to_range(s.span), "selectionRange": to_range(s.name_span),
                           "detail": " ".join(filter(None, (s.detail, s.kind)))},
                          lsp.DocumentSymbol)
                for s in work.symbols(path)]

    return server


def _word_end(span: Span) -> int:
    """The column just past the word a span without an end starts at (at least one
    character on)."""
    try:
        lines = read_text(span.path).splitlines()
    except (OSError, UnicodeError):
        return span.column + 1
    text = lines[span.line - 1] if 1 <= span.line <= len(lines) else ""
    end = span.column - 1
    while end < len(text) and (text[end].isalnum() or text[end] in "_-"):
        end += 1
    return max(end + 1, span.column + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="rules-lsp",
        description="The rules-run language server: diagnostics, hover, definitions, "
        "references, completion and outlines for .rules files and their YAML data, over "
        "standard input and output (the Language Server Protocol). docs/editors.md sets up "
        "Neovim and VS Code.",
        epilog="examples:\n"
        "  rules-lsp                      what an editor starts (docs/editors.md)\n"
        "  rules-lsp --sources ~/sources  hover also shows the lines a declaration cites\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", metavar="FOLDER",
                        help="your copy of the cited sources: hover shows the cited lines "
                        f"(default: the {SOURCES_VARIABLE} environment variable)")
    args = parser.parse_args(argv)
    try:
        server = build_server(Workspace(args.sources))
    except ImportError:
        print('error: rules-lsp needs pygls: pip install "rules-run[lsp]"', file=sys.stderr)
        return 1
    server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())

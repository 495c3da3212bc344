"""rules-lsp driven over standard input and output by a real LSP client (pygls's): the
acceptance test of the language server."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.editor_kit import ROOT, check_json, position

lsp = pytest.importorskip("lsprotocol.types")
client_module = pytest.importorskip("pygls.lsp.client")
uris = pytest.importorskip("pygls.uris")

SERVER = Path(sys.executable).parent / "rules-lsp"
WAIT = 120   # seconds: a guard against a hang, not a timing


def _command() -> list[str]:
    if SERVER.exists():
        return [str(SERVER)]
    return [sys.executable, "-m", "rules_run.editor.server"]


def _at(path: Path, needle: str, skip: int = 0) -> Any:
    line, column = position(path, needle)
    return lsp.Position(line=line - 1, character=column - 1 + skip)


async def _session(patch: Path, battle: Path, chained: Path, cwd: Path) -> dict[str, Any]:
    client = client_module.LanguageClient("rules-lsp-test", "1")
    published: dict[str, list] = {}
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: Any) -> None:
        published[params.uri] = params.diagnostics
        arrived.set()

    await client.start_io(*_command(), cwd=str(cwd))
    out: dict[str, Any] = {}
    try:
        init = await asyncio.wait_for(client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(),
            root_uri=uris.from_fs_path(str(patch)))), WAIT)
        out["capabilities"] = init.capabilities
        client.initialized(lsp.InitializedParams())
        house = patch / "house.rules"
        house_uri = uris.from_fs_path(str(house))
        doc = lsp.TextDocumentIdentifier(uri=house_uri)
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=house_uri, language_id="rules", version=1,
                                               text=house.read_text(encoding="utf-8"))))
        while house_uri not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), WAIT)
        out["diagnostics"] = published[house_uri]
        out["hover"] = await asyncio.wait_for(client.text_document_hover_async(
            lsp.HoverParams(text_document=doc, position=_at(house, "to_hit(a, t)"))), WAIT)
        out["definition"] = await asyncio.wait_for(client.text_document_definition_async(
            lsp.DefinitionParams(text_document=doc, position=_at(house, "to_hit(a, t)"))), WAIT)
        out["symbols"] = await asyncio.wait_for(client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(text_document=doc)), WAIT)
        battle_uri = uris.from_fs_path(str(battle))
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=battle_uri, language_id="yaml", version=1,
                                               text=battle.read_text(encoding="utf-8"))))
        out["completion"] = await asyncio.wait_for(client.text_document_completion_async(
            lsp.CompletionParams(text_document=lsp.TextDocumentIdentifier(uri=battle_uri),
                                 position=_at(battle, "Stu]", skip=3))), WAIT)
        # an edit that fixes the first error: the diagnostics of the file follow it
        fixed = house.read_text(encoding="utf-8").replace("to_woud", "to_wound")
        published.pop(house_uri)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=house_uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=fixed)]))
        while house_uri not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), WAIT)
        out["after_edit"] = published[house_uri]
        # a patch whose base does not load
        chained_uri = uris.from_fs_path(str(chained))
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=chained_uri, language_id="rules", version=1,
                                               text=chained.read_text(encoding="utf-8"))))
        while chained_uri not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), WAIT)
        out["chained"] = published[chained_uri]
        out["published"] = dict(published)
        await asyncio.wait_for(client.shutdown_async(None), WAIT)
        client.exit(None)
    finally:
        await client.stop()
    return out


def test_rules_lsp_over_stdio(patch: Path, battle: Path, tmp_path: Path, capsys) -> None:
    expected = check_json(patch, capsys)
    work = tmp_path / "elsewhere"
    work.mkdir()
    base, top = tmp_path / "base", tmp_path / "top"
    for folder, text in ((base, 'ruleset base "Base"\n\ntest t(u: unit) @ "not in seed: a test"\n'
                                '    dice D6\n    need nothing_here\n'),
                         (top, 'ruleset top "Top" extends base\n\n'
                               'add status shaken @ "not in seed: a test"\n')):
        folder.mkdir()
        (folder / "index.yaml").write_text("kind: ruleset\nrules: [main.rules]\n",
                                           encoding="utf-8")
        (folder / "main.rules").write_text(text, encoding="utf-8")
    out = asyncio.run(_session(patch, battle, top / "main.rules", work))
    house = patch / "house.rules"

    # diagnostics: what rules-check --json reports, with its codes and hints
    got = sorted((str(house), d.range.start.line + 1, d.range.start.character + 1,
                  "error" if d.severity == lsp.DiagnosticSeverity.Error else "warning",
                  d.code, d.message.split("\n")[0]) for d in out["diagnostics"])
    assert got == expected
    assert all(d.source == "rules-check" for d in out["diagnostics"])
    assert any(d.message.endswith("hint: did you mean 'Ld'?") for d in out["diagnostics"])

    # hover on a test: its citation
    hover = out["hover"].contents.value
    assert "test to_hit(attacker: unit, target: unit)" in hover
    assert "cites `000_c4300f58fce5f1da.txt L418`" in hover

    # go to definition: into the base ruleset
    core = ROOT / "rulesets" / "wfb8" / "core.rules"
    (location,) = out["definition"]
    line, column = position(core, "to_hit(attacker")
    assert uris.to_fs_path(location.uri) == str(core)
    assert (location.range.start.line + 1, location.range.start.character + 1) == (line, column)

    # completion of a rule name in a battle file
    labels = {item.label for item in out["completion"].items}
    assert {"Stubborn", "Stupidity"} <= labels

    # the outline
    assert [s.name for s in out["symbols"]] == ["broken-patch", "to_woud", "steady_nerve",
                                                "lucky_blow"]

    # after the edit only the second error is left
    assert [d.code for d in out["after_edit"]] == ["unknown-characteristic"]
    assert out["capabilities"].hover_provider

    # a broken base: its error in its own file, and at the patch's header, with where it is
    (bad_base,) = out["chained"]
    assert bad_base.code == "bad-base"
    (related,) = bad_base.related_information
    base_file = tmp_path / "base" / "main.rules"
    assert uris.to_fs_path(related.location.uri) == str(base_file)
    assert related.location.range.start.line + 1 == position(base_file, "nothing_here")[0]
    assert [d.code for d in out["published"][uris.from_fs_path(str(base_file))]] == [
        "undefined-name"]


def test_rules_lsp_without_pygls_says_how_to_install_it(monkeypatch, capsys) -> None:
    from rules_run.editor import server

    def no_pygls(*_: object) -> None:
        raise ImportError("No module named 'pygls'")

    monkeypatch.setattr(server, "build_server", no_pygls)
    assert server.main([]) == 1
    assert capsys.readouterr().err == 'error: rules-lsp needs pygls: pip install "rules-run[lsp]"\n'

// The rules-run extension: starts rules-lsp for .rules files and YAML files (the server
// answers for those in a ruleset folder or naming an edition, and ignores the rest).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulesRun");
  const [command, ...args] = config.get("serverCommand") || ["rules-lsp"];
  const sources = config.get("sourcesFolder");
  client = new LanguageClient(
    "rules-lsp",
    "rules-lsp",
    { command, args },
    {
      documentSelector: [
        { scheme: "file", language: "rules" },
        { scheme: "file", language: "yaml" },
      ],
      initializationOptions: sources ? { sources } : {},
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

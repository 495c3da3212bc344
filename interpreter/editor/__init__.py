"""The language server for rule files and their YAML data (``rules-lsp``)."""

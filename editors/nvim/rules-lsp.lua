-- rules-lsp in Neovim (0.7 or later), with the built-in LSP client and no plugin.
-- Load it from your init.lua:  dofile("/path/to/rules-run/editors/nvim/rules-lsp.lua")
-- Options (set before loading):
--   vim.g.rules_lsp_cmd     the server command (default: { "rules-lsp" })
--   vim.g.rules_run_sources your copy of the cited sources: hover shows the cited lines
-- It attaches to .rules files, and to YAML files inside a ruleset folder (one with an
-- index.yaml above it) or naming an edition (battle files).

-- (forced: Neovim reads other *.rules files, udev's and hog's, as their own kinds)
vim.cmd([[autocmd BufRead,BufNewFile *.rules set filetype=rules]])

local client_id = nil

local function ruleset_folder(path)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  while dir ~= "" and dir ~= "/" do
    if vim.fn.filereadable(dir .. "/index.yaml") == 1 then
      return dir
    end
    dir = vim.fn.fnamemodify(dir, ":h")
  end
  return nil
end

local function names_an_edition(bufnr)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 50, false)) do
    if line:match("^edition:") then
      return true
    end
  end
  return false
end

local function attach(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  local folder = ruleset_folder(path)
  if vim.bo[bufnr].filetype == "yaml" and folder == nil and not names_an_edition(bufnr) then
    return
  end
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client({
      name = "rules-lsp",
      cmd = vim.g.rules_lsp_cmd or { "rules-lsp" },
      root_dir = folder or vim.fn.getcwd(),
      init_options = { sources = vim.g.rules_run_sources },
    })
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local opts = { buffer = bufnr }
  vim.keymap.set("n", "K", vim.lsp.buf.hover, opts)
  vim.keymap.set("n", "gd", vim.lsp.buf.definition, opts)
  vim.keymap.set("n", "gr", vim.lsp.buf.references, opts)
  vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "rules", "yaml" },
  callback = function(args)
    attach(args.buf)
  end,
})

-- Driven by tests/editor/test_neovim.py: Neovim's built-in LSP client, with the set-up
-- docs/editors.md gives (editors/nvim/rules-lsp.lua), talks to rules-lsp. What it gets is
-- written as JSON for the test to check.
local t = vim.fn.json_decode(os.getenv("RULES_LSP_TEST"))
vim.g.rules_lsp_cmd = t.cmd
dofile(t.config)
local out = { errors = {} }

local function request(buf, method, line, character)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = line, character = character },
  }
  local answers, err = vim.lsp.buf_request_sync(buf, method, params, t.wait_ms)
  if answers == nil then
    table.insert(out.errors, method .. ": " .. tostring(err))
    return nil
  end
  for _, answer in pairs(answers) do
    if answer.error then
      table.insert(out.errors, method .. ": " .. vim.inspect(answer.error))
    end
    return answer.result
  end
end

local function attached(buf)
  return vim.wait(t.wait_ms, function()
    return #vim.lsp.buf_get_clients(buf) > 0
  end, 50)
end

vim.cmd("edit " .. vim.fn.fnameescape(t.patch))
local patch = vim.api.nvim_get_current_buf()
out.filetype = vim.bo[patch].filetype
out.attached = attached(patch)
vim.wait(t.wait_ms, function()
  return #vim.diagnostic.get(patch) > 0
end, 50)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(patch)) do
  local code = d.code
  if code == nil and d.user_data and d.user_data.lsp then
    code = d.user_data.lsp.code
  end
  table.insert(out.diagnostics, {
    line = d.lnum, column = d.col, severity = d.severity, code = code, message = d.message,
  })
end
out.hover = request(patch, "textDocument/hover", t.hover[1], t.hover[2])
out.definition = request(patch, "textDocument/definition", t.hover[1], t.hover[2])

vim.cmd("edit " .. vim.fn.fnameescape(t.battle))
local battle = vim.api.nvim_get_current_buf()
out.battle_attached = attached(battle)
out.completion = request(battle, "textDocument/completion", t.complete[1], t.complete[2])

vim.fn.writefile({ vim.fn.json_encode(out) }, t.out)
vim.cmd("qa!")

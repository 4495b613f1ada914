-- tests/nvim/lsp_test.lua - Neovim (0.7.2+) as a real LSP client of `tessel lsp`.
--
-- Starts the server with vim.lsp.start_client, opens a copy of a kernel with
-- unmasked loads, waits for tessel's TS201 warnings, checks hover and inlay
-- hints, then applies tessel's quick fixes through textDocument/codeAction
-- (Neovim sends the edits back as incremental didChange) until the warnings
-- are gone. Environment: TESSEL (the binary), FIXTURE (the .py to copy).
-- Exits 0 on success; on failure prints why and exits 1 (cquit).

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function check(cond, msg)
  if not cond then fail(msg) end
end

local function log(msg) io.stdout:write(msg .. '\n') end

local function main()
local tessel = os.getenv('TESSEL')
local fixture = os.getenv('FIXTURE')
check(tessel and fixture, 'set TESSEL and FIXTURE')

-- Edit a copy so the repository's fixture never changes.
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local path = dir .. '/vector_add_bug.py'
vim.fn.writefile(vim.fn.readfile(fixture), path)

local id = vim.lsp.start_client({
  name = 'tessel',
  cmd = { tessel, 'lsp', '--log=verbose' },
  root_dir = dir,
  flags = { debounce_text_changes = 0 },
})
check(id, 'start_client failed')
vim.cmd('edit ' .. vim.fn.fnameescape(path))
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, id)
check(vim.wait(10000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.initialized
end, 10), 'server did not initialize')
local client = vim.lsp.get_client_by_id(id)
log('initialized: ' .. client.name)

local function warnings()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'TS201' then table.insert(out, d) end
  end
  return out
end

check(vim.wait(10000, function() return #warnings() == 3 end, 10),
  'expected 3 TS201 warnings, got ' .. #vim.diagnostic.get(buf) .. ' diagnostics')
log('diagnostics: ' .. #warnings() .. ' x TS201')

local uri = vim.uri_from_bufnr(buf)
-- Hover over `offs` (line 11, 0-based 10): its tile type under BLOCK=1024.
local r = client.request_sync('textDocument/hover',
  { textDocument = { uri = uri }, position = { line = 10, character = 5 } }, 5000, buf)
check(r and r.result and r.result.contents, 'no hover result: ' .. vim.inspect(r))
local hover = r.result.contents.value
check(hover:find('offs: %[1024%]'), 'hover does not show the tile type: ' .. hover)
log('hover: ' .. hover:gsub('\n', ' | '))

-- Inlay hints (LSP 3.17; Neovim 0.7 has no UI for them but can ask).
r = client.request_sync('textDocument/inlayHint', {
  textDocument = { uri = uri },
  range = { start = { line = 0, character = 0 }, ['end'] = { line = 30, character = 0 } },
}, 5000, buf)
check(r and r.result and #r.result > 0, 'no inlay hints: ' .. vim.inspect(r))
local labels = {}
for _, h in ipairs(r.result) do table.insert(labels, h.label) end
check(table.concat(labels, ' '):find(': %[1024%]'), 'inlay hints lack the tile type: ' .. table.concat(labels, ' '))
log('inlay hints: ' .. table.concat(labels, ' '))

-- Apply a quick fix per warning; each edit goes back to the server as a didChange.
for round = 1, 5 do
  local ws = warnings()
  if #ws == 0 then break end
  local d = ws[1]
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  r = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = uri }, range = range, context = { diagnostics = {} },
  }, 5000, buf)
  check(r and r.result and #r.result > 0, 'no code action for ' .. d.message)
  local action = r.result[1]
  log('applying: ' .. action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
  local before = #ws
  check(vim.wait(10000, function() return #warnings() < before end, 10),
    'the fix did not remove the warning (round ' .. round .. ')')
end
check(vim.wait(10000, function() return #warnings() == 0 end, 10), 'warnings remain after the fixes')
log('diagnostics cleared')
log(table.concat(vim.api.nvim_buf_get_lines(buf, 10, 14, false), '\n'))

client.stop()
vim.wait(2000, function() return client.is_stopped() end, 10)
log('PASS')
end

-- A Lua error would leave headless Neovim running: turn it into a failure.
local ok, err = pcall(main)
if not ok then fail(tostring(err)) end
vim.cmd('qa!')

-- tests/nvim/config_test.lua - the shipped editors/nvim/tessel.lua on Neovim 0.7+.
--
-- Loads the config with setup(), opens a Python file that imports triton and
-- one that does not (FileType fires because filetype detection is on), and
-- checks that tessel attaches to the first only, publishes its diagnostics,
-- and defines the :TesselRun/:TesselViewIR/:TesselInlayHints commands; then
-- that a new buffer, not on disk, attaches once its text imports triton.
-- Environment: TESSEL, FIXTURE, CONFIG (path of editors/nvim/tessel.lua).
local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function main()
  local tessel, fixture, config = os.getenv('TESSEL'), os.getenv('FIXTURE'), os.getenv('CONFIG')
  assert(tessel and fixture and config, 'set TESSEL, FIXTURE and CONFIG')
  vim.cmd('filetype on')
  local M = dofile(config)
  M.setup({ cmd = { tessel, 'lsp' } })

  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(fixture), dir .. '/kernel.py')
  vim.fn.writefile({ 'import numpy as np', 'x = np.zeros(3)' }, dir .. '/plain.py')

  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/plain.py'))
  local plain = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/kernel.py'))
  local buf = vim.api.nvim_get_current_buf()

  assert(vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 10), 'no diagnostics from tessel')
  local n = 0
  for _ in pairs(vim.lsp.buf_get_clients(plain)) do n = n + 1 end
  assert(n == 0, 'tessel attached to a file that does not import triton')
  assert(vim.fn.exists(':TesselRun') == 2, ':TesselRun is not defined')
  assert(vim.fn.exists(':TesselViewIR') == 2, ':TesselViewIR is not defined')
  assert(vim.fn.exists(':TesselInlayHints') == 2, ':TesselInlayHints is not defined')
  -- A new file, not on disk, attaches once it imports triton.
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/new.py'))
  local new = vim.api.nvim_get_current_buf()
  assert(vim.bo[new].filetype == 'python', 'new.py is not python')
  vim.api.nvim_buf_set_lines(new, 0, -1, false, vim.fn.readfile(fixture))
  vim.cmd('doautocmd TextChanged')
  assert(vim.wait(10000, function() return #vim.diagnostic.get(new) > 0 end, 10),
    'tessel did not attach to a new buffer that imports triton')
  io.stdout:write(('diagnostics: %d, plain buffer clients: %d\nPASS\n'):format(#vim.diagnostic.get(buf), n))
  vim.lsp.stop_client(vim.lsp.get_active_clients())
end

local ok, err = pcall(main)
if not ok then fail(tostring(err)) end
vim.cmd('qa!')

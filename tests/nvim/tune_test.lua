-- tests/nvim/tune_test.lua - :TesselTune through the shipped editors/nvim/tessel.lua.
--
-- setup() with `runners = { 'local?workers=2' }`, then :TesselTune on an
-- autotuned kernel: the server runs `tessel tune` over that runner and the
-- `tessel/tuneResult` handler opens the table in tessel://tune/KERNEL.md,
-- every instance's best config in bold.
-- Then :TesselCancel stops a tune of a slow kernel (SLOW), whose result says
-- it was cancelled.
-- Environment: TESSEL, FIXTURE (an autotuned kernel file), SLOW, CONFIG.
local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function main()
  local tessel, fixture, config = os.getenv('TESSEL'), os.getenv('FIXTURE'), os.getenv('CONFIG')
  assert(tessel and fixture and config, 'set TESSEL, FIXTURE and CONFIG')
  vim.cmd('filetype on')
  local M = dofile(config)
  M.setup({ cmd = { tessel, 'lsp' }, runners = { 'local?workers=2' } })
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(fixture), dir .. '/kernel.py')
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/kernel.py'))
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(10000, function() return vim.fn.exists(':TesselTune') == 2 end, 10), ':TesselTune is not defined')
  local def = vim.fn.search('^def matmul_kernel')
  assert(def > 0, 'no matmul_kernel in the fixture')
  vim.api.nvim_win_set_cursor(0, { def, 0 })
  vim.cmd('TesselTune cpu')
  local table_buf
  assert(vim.wait(60000, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(b):match('tessel://tune/matmul_kernel%.md$') then
        table_buf = b
        return true
      end
    end
    return false
  end, 50), 'no tune table arrived')
  local text = table.concat(vim.api.nvim_buf_get_lines(table_buf, 0, -1, false), '\n')
  assert(text:match('### tessel tune: matmul_kernel'), 'not a tune table: ' .. text)
  assert(text:match('%*%*%d+ ops%*%*'), 'no best config in bold: ' .. text)
  assert(not text:match('Incomplete'), 'the local tune is incomplete: ' .. text)
  assert(vim.api.nvim_buf_is_valid(buf))
  -- The setting reached the server: the tune ran on the two workers it names.
  local out = M.last_tune and M.last_tune.output or ''
  assert(out:match('over 2 workers: local%?workers=2'), 'the runners setting was not used: ' .. out)
  -- A tune that takes seconds, cancelled: the result says so and no table claims to be complete.
  vim.fn.writefile(vim.fn.readfile(os.getenv('SLOW')), dir .. '/slow.py')
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/slow.py'))
  local slow_def = vim.fn.search('^def slow_add')
  assert(slow_def > 0, 'no slow_add in the slow fixture')
  vim.api.nvim_win_set_cursor(0, { slow_def, 0 })
  M.last_tune = nil
  vim.cmd('TesselTune cpu')
  assert(vim.wait(20000, function() return M.cancellable ~= nil end, 20), 'the tune never became cancellable')
  vim.cmd('TesselCancel')
  assert(vim.wait(20000, function() return M.last_tune ~= nil end, 20), 'no result after the cancel')
  assert(M.last_tune.cancelled == true and M.last_tune.complete == false,
    'the cancelled tune does not say so: ' .. vim.inspect(M.last_tune))
  print('ok: the tune table of matmul_kernel came back through the runners setting; :TesselCancel stops a tune')
end

local ok, err = pcall(main)
if not ok then
  fail(tostring(err))
end
vim.cmd('qall!')

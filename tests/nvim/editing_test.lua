-- tests/nvim/editing_test.lua - an editing run through the shipped editors/nvim/tessel.lua on Neovim 0.7+.
--
-- Opens a copy of a kernel with a launch site (FIXTURE: samples/vector_add.py) through the plugin as a user
-- configures it (setup with cmd = { tessel, 'lsp' }), then, without ever switching buffers or calling
-- vim.lsp.codelens.refresh() itself:
--  1. waits for the launch's code lens to show the JIT tier's figures instead of "compiling…" (the server's
--     workspace/codeLens/refresh, which the plugin announces and answers);
--  2. edits the launch (num_warps=4 -> 8) and the kernel body, as typing would, and waits for the lens to show
--     the new launch with figures again;
--  3. checks that Neovim's lsp.log holds no [ERROR] line: the plugin starts the server with --log=error, so
--     the server's per-request log lines are not filed as errors, and a ContentModified answer is re-asked.
-- Environment: TESSEL, FIXTURE, CONFIG (and an XDG_CACHE_HOME of its own: the log is read at the end).
local function main()
  local tessel, fixture, config = os.getenv('TESSEL'), os.getenv('FIXTURE'), os.getenv('CONFIG')
  assert(tessel and fixture and config, 'set TESSEL, FIXTURE and CONFIG')
  -- Emptied, not removed: Neovim's LSP log holds the file open (append mode) from its first use.
  local log_path = vim.lsp.get_log_path()
  local empty = assert(io.open(log_path, 'w'))
  empty:close()
  vim.cmd('filetype on')
  local M = dofile(config)
  M.setup({ cmd = { tessel, 'lsp' }, flags = { debounce_text_changes = 50 } })

  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(fixture), dir .. '/vector_add.py')
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/vector_add.py'))
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(10000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 10), 'tessel did not attach')
  local client = vim.lsp.buf_get_clients(buf)[next(vim.lsp.buf_get_clients(buf))]
  assert(vim.wait(10000, function() return client.initialized end, 10), 'the server did not initialize')
  for _, arg in ipairs(client.config.cmd) do
    assert(not arg:match('^%-%-log=') or arg == '--log=error', 'unexpected log option ' .. arg)
  end

  -- The drawn lenses: virtual text in the codelens namespaces.
  local function drawn()
    local titles = {}
    for name, ns in pairs(vim.api.nvim_get_namespaces()) do
      if name:match('^vim_lsp_codelens') then
        for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
          for _, chunk in ipairs(mark[4].virt_text or {}) do
            if chunk[1] ~= ' | ' and chunk[1] ~= '|' then
              table.insert(titles, chunk[1])
            end
          end
        end
      end
    end
    return table.concat(titles, ' // ')
  end
  -- The launch lens with the JIT tier's figures (registers, or why there are none), not "compiling…".
  local function figures(warps)
    local t = drawn()
    return t:find('num_warps=' .. warps, 1, true) ~= nil and t:find('compiling', 1, true) == nil
      and (t:find('regs', 1, true) ~= nil or t:find('figures unavailable', 1, true) ~= nil
        or t:find('PTX only', 1, true) ~= nil)
  end
  assert(vim.wait(60000, function() return figures(4) end, 50),
    'the lenses did not get the JIT figures without a buffer switch: ' .. drawn())
  io.stdout:write('lenses after the JIT tier: ' .. drawn():sub(1, 300) .. '\n')

  -- Edit as a user would: the launch's num_warps, then a line in the kernel.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, line in ipairs(lines) do
    if line:find('num_warps=4)', 1, true) and line:find('vector_add_kernel[grid]', 1, true) then
      local col = line:find('num_warps=4)', 1, true) + #'num_warps=' - 1
      vim.api.nvim_buf_set_text(buf, i - 1, col, i - 1, col + 1, { '8' })
    end
  end
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if line:match('^%s+y = tl%.load') then
      vim.api.nvim_buf_set_lines(buf, i, i, false, { '    z = x * 2.0' })
      break
    end
  end
  assert(vim.wait(60000, function() return figures(8) end, 50),
    'the lenses did not follow the edit to num_warps=8: ' .. drawn())
  io.stdout:write('lenses after the edit: ' .. drawn():sub(1, 300) .. '\n')
  assert(#vim.tbl_filter(function(d) return d.severity == vim.diagnostic.severity.ERROR end,
    vim.diagnostic.get(buf)) == 0, 'the edited file has errors: ' .. vim.inspect(vim.diagnostic.get(buf)))

  vim.lsp.stop_client(vim.lsp.get_active_clients())
  vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  local errors, lines = {}, 0
  local f = assert(io.open(log_path, 'r'))
  for line in f:lines() do
    lines = lines + 1
    if line:find('[ERROR]', 1, true) then
      table.insert(errors, line)
    end
  end
  f:close()
  assert(#errors == 0, ('%d [ERROR] lines in %s, e.g.\n%s'):format(#errors, log_path,
    table.concat(vim.list_slice(errors, 1, 4), '\n')))
  io.stdout:write(('lsp.log: %d lines, no [ERROR] line\nPASS\n'):format(lines))
end

local ok, err = pcall(main)
if not ok then
  io.stderr:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')

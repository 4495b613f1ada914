-- tests/nvim/codelens_test.lua - code lenses through the shipped editors/nvim/tessel.lua on Neovim 0.7+.
--
-- Opens a file with an autotuned kernel (FIXTURE: samples/bugs/ts105_invalid_arange.py), waits for the
-- lenses, and checks that every lens is drawn (the informational per-config ones too) while
-- vim.lsp.codelens.run() is offered only the runnable ones: each lens it can pick has a command id.
-- Environment: TESSEL, FIXTURE, CONFIG.
local function main()
  local tessel, fixture, config = os.getenv('TESSEL'), os.getenv('FIXTURE'), os.getenv('CONFIG')
  assert(tessel and fixture and config, 'set TESSEL, FIXTURE and CONFIG')
  vim.cmd('filetype on')
  local M = dofile(config)
  M.setup({ cmd = { tessel, 'lsp' } })

  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(fixture), dir .. '/kernel.py')
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/kernel.py'))
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(10000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 10), 'tessel did not attach')

  -- The drawn lenses: virtual text in the codelens namespaces, one chunk per lens (and '|' between them).
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
    return titles
  end
  local runnable_count = function() return #vim.lsp.codelens.get(buf) end
  -- The server may answer the first request before it has analyzed the file; refresh until lenses show.
  assert(vim.wait(15000, function()
    pcall(vim.lsp.codelens.refresh)
    return runnable_count() > 0 and #drawn() > runnable_count()
  end, 200), ('no informational lenses drawn beside the runnable ones (drawn %d, runnable %d): %s'):format(#drawn(), runnable_count(), table.concat(drawn(), ' // ')))

  for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
    assert(M.runnable_lens(lens), 'vim.lsp.codelens.run() would offer a lens without a command: ' .. vim.inspect(lens))
  end
  -- The "+2 configs" lens of tuned_block_kernel (three configs from one comprehension) runs
  -- tessel.showConfigs through vim.lsp.commands: the table opens in a Markdown scratch buffer.
  local more
  for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
    if lens.command.command == 'tessel.showConfigs' then
      more = lens
    end
  end
  assert(more, 'no "+N configs" lens with the tessel.showConfigs command')
  local client = vim.lsp.buf_get_clients(buf)[next(vim.lsp.buf_get_clients(buf))]
  vim.lsp.commands['tessel.showConfigs'](more.command, { client_id = client.id, bufnr = buf })
  local function table_buffer()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(b):match('tessel://configs/tuned_block_kernel%.md$') then
        return b
      end
    end
  end
  assert(vim.wait(10000, function() return table_buffer() ~= nil end, 50), 'the config table did not open')
  local rows = vim.api.nvim_buf_get_lines(table_buffer(), 0, -1, false)
  assert(vim.bo[table_buffer()].filetype == 'markdown', 'the config table is not Markdown')
  assert(rows[1] == '### `tuned_block_kernel`: 3 autotune configs', 'table heading: ' .. tostring(rows[1]))
  assert(rows[5] and rows[5]:match('^| 0 | BLOCK=64 | 4 | 3 |'), 'first row: ' .. tostring(rows[5]))
  vim.cmd('buffer ' .. buf)

  local titles = drawn()
  io.stdout:write(('drawn %d lenses, %d runnable; e.g. %s\nPASS\n'):format(#titles, runnable_count(),
    table.concat(titles, ' || '):sub(1, 200)))
  vim.lsp.stop_client(vim.lsp.get_active_clients())
end

local ok, err = pcall(main)
if not ok then
  io.stderr:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')

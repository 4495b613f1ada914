-- editors/nvim/tessel.lua - tessel's language server in Neovim (0.7 and later).
--
-- Usage (put this file on 'runtimepath' as lua/tessel.lua, or dofile() it):
--
--   require('tessel').setup({ cmd = { '/path/to/tessel', 'lsp' } })
--
-- On Neovim 0.11+ it registers the server with vim.lsp.config/vim.lsp.enable;
-- on 0.7-0.10 it starts one client per project root with
-- vim.lsp.start_client and attaches Python buffers itself. Either way the
-- server attaches only to Python files that import triton.
--
-- Commands: :TesselRun [cpu|gpu|auto] runs the kernel around the cursor (output in
-- a scratch buffer; without an argument, setup's `run_device`, default 'cpu';
-- a GPU run is checked against the interpreter and timed, and falls back to
-- the CPU where there is no GPU; its summary, with the time and % of the
-- device's peak, is notified and shown as a "last run" code lens), :TesselViewIR {tir|llvm|ptx|sass} shows a kernel's IR,
-- :TesselTune [cpu|gpu|auto] times every autotune config of the kernel under every launch
-- shape over setup's `runners` (`default_runner`, else this machine) and shows the table;
-- :TesselCancel stops the run or tune in progress;
-- :TesselInlayHints {on|off} toggles the tile-type hints. Code lenses ("Run
-- on CPU", per-config summaries) show with vim.lsp.codelens, and are asked
-- again when the server's JIT tier has new figures (workspace/codeLens/refresh,
-- which this plugin announces and answers itself, since Neovim before 0.10
-- does neither).
--
-- The server logs at `log_level` (default 'error'): Neovim files everything a
-- server writes to stderr as an [ERROR] line of its lsp.log, so the server's
-- per-request info lines would fill it with false errors. `log_level = 'info'`
-- (or a `--log=` in `cmd`) asks for more.
local M = {}

M.defaults = {
  cmd = { 'tessel', 'lsp' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', '.git' },
  init_options = { inlayHints = { enable = true } },
  settings = { tessel = { inlayHints = { enable = true } } },
  -- :TesselRun's device when none is given: 'cpu', 'gpu' or 'auto' (the GPU when there is one).
  run_device = 'cpu',
  -- Where :TesselRun goes ('' this machine) and where :TesselTune and the Tune lens spread their
  -- runs (docs/runners.md): 'local', 'ssh://[user@]host[:port]', 'slurm://PARTITION'.
  default_runner = '',
  runners = {},
  -- The server's --log level: 'error', 'info' or 'verbose'; nil leaves cmd as given.
  log_level = 'error',
}

-- cmd with `--log=<level>` appended, unless cmd already has a --log option.
function M.server_cmd(cmd, level)
  local out = vim.deepcopy(cmd)
  if not level then
    return out
  end
  for _, arg in ipairs(out) do
    if type(arg) == 'string' and arg:match('^%-%-log') then
      return out
    end
  end
  table.insert(out, '--log=' .. level)
  return out
end

-- The client's capabilities with workspace.codeLens.refreshSupport: the
-- plugin answers the refresh itself (M.handlers) on every Neovim version.
function M.client_capabilities(user)
  local caps = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), user or {})
  caps.workspace = caps.workspace or {}
  caps.workspace.codeLens = vim.tbl_deep_extend('force', caps.workspace.codeLens or {}, { refreshSupport = true })
  return caps
end

M.run_device = M.defaults.run_device

-- True when the buffer's first 300 lines import triton.
function M.imports_triton(bufnr)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 300, false)) do
    if line:match('^%s*import%s+triton') or line:match('^%s*from%s+triton') then
      return true
    end
  end
  return false
end

local function find_root(bufnr, markers)
  local path = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while dir and dir ~= '' do
    for _, m in ipairs(markers) do
      if vim.loop.fs_stat(dir .. '/' .. m) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return vim.fn.fnamemodify(path, ':p:h')
end

local function scratch(title, text, filetype)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, title)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.bo[buf].modifiable = false
  if filetype then
    vim.bo[buf].filetype = filetype
  end
end

-- Shows `tessel/runResult` notifications.
M.handlers = {
  ['tessel/runResult'] = function(_, result)
    if not result then
      return
    end
    local status = result.cancelled and 'cancelled' or ('exit code ' .. tostring(result.exitCode))
    local head = ''
    if result.note then
      head = head .. 'note: ' .. result.note .. '\n'
    end
    if type(result.summary) == 'table' and result.summary.text then
      head = head .. 'summary: ' .. result.summary.text .. '\n'
      status = status .. ': ' .. result.summary.text
    end
    scratch('tessel run ' .. result.kernel, head .. (result.output or ''), nil)
    vim.notify(('tessel: %s on %s: %s'):format(result.kernel, result.device, status),
      result.exitCode == 0 and vim.log.levels.INFO or vim.log.levels.WARN)
  end,
  -- A finished Tune: its table in a Markdown scratch buffer; an incomplete
  -- tune says so (its first runner failure) as a warning, never as done.
  ['tessel/tuneResult'] = function(_, result)
    if not result then
      return
    end
    M.last_tune = result -- the whole result (its output names the workers), for :lua inspection
    local body = result.markdown or ('tessel tune ' .. result.kernel .. ' wrote no report\n\n' .. (result.output or ''))
    scratch('tessel://tune/' .. result.kernel .. '.md', body, 'markdown')
    if result.cancelled then
      return vim.notify('tessel: tune of ' .. result.kernel .. ' cancelled', vim.log.levels.INFO)
    end
    if not result.complete then
      local why = (result.output or ''):match('tessel tune: [^\n]*') or 'see :messages'
      return vim.notify('tessel: tune of ' .. result.kernel .. ' is incomplete: ' .. why, vim.log.levels.WARN)
    end
    local keep = result.keep or {}
    vim.notify(('tessel: tuned %s: %d configs best for some shape (the quick fix on the kernel keeps them)')
      :format(result.kernel, #keep), vim.log.levels.INFO)
  end,
  -- The run or tune in progress, when the server lets it be cancelled
  -- (:TesselCancel); Neovim's own progress handling runs as before.
  ['$/progress'] = function(err, result, ctx, config)
    local value = result and result.value
    if type(value) == 'table' then
      if value.kind == 'begin' and value.cancellable then
        M.cancellable = { token = result.token, client_id = ctx.client_id }
      elseif value.kind == 'end' and M.cancellable and M.cancellable.token == result.token then
        M.cancellable = nil
      end
    end
    local default = vim.lsp.handlers['$/progress']
    if default then
      return default(err, result, ctx, config)
    end
  end,
  ['tessel/serverStatus'] = function(_, result)
    M.status = result
  end,
  -- The JIT tier has new figures: ask again for the lenses of every buffer of
  -- this client that shows them (Neovim's own codelens.refresh() only asks
  -- for the current buffer, and 0.7-0.9 have no handler for this request).
  ['workspace/codeLens/refresh'] = function(_, _, ctx)
    local client = ctx and vim.lsp.get_client_by_id(ctx.client_id)
    if client and vim.lsp.codelens then
      for bufnr, _ in pairs(client.attached_buffers or {}) do
        if vim.api.nvim_buf_is_loaded(bufnr) then
          client.request('textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } },
            function(err, result, rctx, config)
              rctx = rctx or {}
              rctx.bufnr = rctx.bufnr or bufnr
              rctx.client_id = rctx.client_id or client.id
              vim.lsp.codelens.on_codelens(err, result, rctx, config)
            end, bufnr)
        end
      end
    end
    return vim.NIL
  end,
}

-- A lens the server sends with an empty command id is information (one per
-- autotune config or launch site), not an action.
function M.runnable_lens(lens)
  return lens.command ~= nil and lens.command.command ~= nil and lens.command.command ~= ''
end

-- Every lens is drawn, then only the runnable ones are kept where
-- vim.lsp.codelens.run() looks (its cache, through save()): Neovim 0.7-0.9
-- would otherwise offer the informational ones and send an empty command.
-- codelens.refresh() hands its responses to codelens.on_codelens itself, past
-- the client's handlers, so that is the function wrapped, once, and only for
-- tessel's responses; the original still draws them and ends the refresh.
function M.filter_codelens()
  local codelens = vim.lsp.codelens
  if M.codelens_filtered or not (codelens and codelens.on_codelens and codelens.save) then
    return
  end
  M.codelens_filtered = true
  local on_codelens = codelens.on_codelens
  codelens.on_codelens = function(err, result, ctx, config)
    local from = ctx and vim.lsp.get_client_by_id(ctx.client_id)
    -- ContentModified: an edit overtook the request (Neovim before 0.10 does
    -- not cancel stale requests itself). Ask again for the new text rather
    -- than log an error; the refresh in progress ends with that answer.
    if err and err.code == vim.lsp.protocol.ErrorCodes.ContentModified and from and from.name == 'tessel'
        and (ctx.tessel_retries or 0) < 5 and vim.api.nvim_buf_is_loaded(ctx.bufnr) then
      vim.defer_fn(function()
        from.request('textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(ctx.bufnr) } },
          function(e, r, c, cfg)
            c = c or {}
            c.bufnr, c.client_id = c.bufnr or ctx.bufnr, c.client_id or ctx.client_id
            c.tessel_retries = (ctx.tessel_retries or 0) + 1
            codelens.on_codelens(e, r, c, cfg)
          end, ctx.bufnr)
      end, 50)
      return
    end
    on_codelens(err, result, ctx, config)
    local client = ctx and vim.lsp.get_client_by_id(ctx.client_id)
    if not err and type(result) == 'table' and client and client.name == 'tessel' then
      codelens.save(vim.tbl_filter(M.runnable_lens, result), ctx.bufnr, ctx.client_id)
    end
  end
end

local function tessel_client(bufnr)
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == 'tessel' then
      return c
    end
  end
  return nil
end

-- The name of the `def` at or above the cursor; on a decorator line, the
-- `def` the decorators belong to (below it).
local function kernel_at_cursor(bufnr)
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local here = vim.api.nvim_buf_get_lines(bufnr, row - 1, row, false)[1] or ''
  if here:match('^%s*@') then
    local last = vim.api.nvim_buf_line_count(bufnr)
    for l = row + 1, math.min(last, row + 50) do
      local line = vim.api.nvim_buf_get_lines(bufnr, l - 1, l, false)[1] or ''
      local name = line:match('^def%s+([%w_]+)')
      if name then
        return name
      end
      if not line:match('^%s*@') and not line:match('^%s') and not line:match('^%s*$') and not line:match('^%)') then
        break
      end
    end
  end
  for l = row, 1, -1 do
    local line = vim.api.nvim_buf_get_lines(bufnr, l - 1, l, false)[1]
    local name = line and line:match('^def%s+([%w_]+)')
    if name then
      return name
    end
  end
  return nil
end

-- The "+N configs" lens's table (tessel.showConfigs): every autotune config
-- of a kernel with its figures, in a Markdown scratch buffer.
function M.show_configs(client, bufnr, uri, kernel)
  client.request('workspace/executeCommand', {
    command = 'tessel.showConfigs',
    arguments = { { uri = uri, kernel = kernel } },
  }, function(err, result)
    if err then
      return vim.notify('tessel: ' .. err.message, vim.log.levels.WARN)
    end
    if type(result) == 'table' and result.markdown then
      scratch('tessel://configs/' .. kernel .. '.md', result.markdown, 'markdown')
    end
  end, bufnr)
end

-- Neovim runs a lens's command through vim.lsp.commands when one is there
-- (the reply of a command sent to the server is otherwise dropped).
function M.register_lens_commands()
  vim.lsp.commands['tessel.showConfigs'] = function(command, ctx)
    local client = ctx and vim.lsp.get_client_by_id(ctx.client_id)
    local args = command.arguments and command.arguments[1]
    if client and type(args) == 'table' then
      M.show_configs(client, ctx.bufnr, args.uri, args.kernel)
    end
  end
end

local function define_commands(bufnr)
  vim.api.nvim_buf_create_user_command(bufnr, 'TesselConfigs', function()
    local client, kernel = tessel_client(bufnr), kernel_at_cursor(bufnr)
    if not client or not kernel then
      return vim.notify('tessel: no kernel under the cursor', vim.log.levels.WARN)
    end
    M.show_configs(client, bufnr, vim.uri_from_bufnr(bufnr), kernel)
  end, {})

  vim.api.nvim_buf_create_user_command(bufnr, 'TesselRun', function(o)
    local client, kernel = tessel_client(bufnr), kernel_at_cursor(bufnr)
    if not client or not kernel then
      return vim.notify('tessel: no kernel under the cursor', vim.log.levels.WARN)
    end
    client.request('workspace/executeCommand', {
      command = 'tessel.runKernel',
      arguments = { { uri = vim.uri_from_bufnr(bufnr), kernel = kernel, device = o.args ~= '' and o.args or M.run_device } },
    }, function(err)
      if err then
        vim.notify('tessel: ' .. err.message, vim.log.levels.ERROR)
      end
    end, bufnr)
  end, { nargs = '?', complete = function() return { 'cpu', 'gpu', 'auto' } end })

  vim.api.nvim_buf_create_user_command(bufnr, 'TesselTune', function(o)
    local client, kernel = tessel_client(bufnr), kernel_at_cursor(bufnr)
    if not client or not kernel then
      return vim.notify('tessel: no kernel under the cursor', vim.log.levels.WARN)
    end
    client.request('workspace/executeCommand', {
      command = 'tessel.tuneKernel',
      arguments = { { uri = vim.uri_from_bufnr(bufnr), kernel = kernel, device = o.args ~= '' and o.args or M.run_device } },
    }, function(err)
      if err then
        vim.notify('tessel: ' .. err.message, vim.log.levels.ERROR)
      end
    end, bufnr)
  end, { nargs = '?', complete = function() return { 'cpu', 'gpu', 'auto' } end })

  vim.api.nvim_buf_create_user_command(bufnr, 'TesselCancel', function()
    local c = M.cancellable
    local client = c and vim.lsp.get_client_by_id(c.client_id)
    if not client then
      return vim.notify('tessel: no run or tune in progress', vim.log.levels.INFO)
    end
    client.notify('window/workDoneProgress/cancel', { token = c.token })
  end, {})

  vim.api.nvim_buf_create_user_command(bufnr, 'TesselViewIR', function(o)
    local client, kernel = tessel_client(bufnr), kernel_at_cursor(bufnr)
    if not client or not kernel then
      return vim.notify('tessel: no kernel under the cursor', vim.log.levels.WARN)
    end
    local kind = o.args ~= '' and o.args or 'tir'
    client.request('tessel/viewIR', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, kernel = kernel, kind = kind },
      function(err, result)
        if err then
          return vim.notify('tessel: ' .. err.message, vim.log.levels.WARN)
        end
        -- A filetype per IR, so syntax plugins (and `:set ft?`) know what it is.
        local filetypes = { tir = 'tir', llvm = 'llvm', ptx = 'ptx', sass = 'asm' }
        scratch(('tessel://%s/%s.%s'):format(kind, kernel, kind), result.text, filetypes[kind])
      end, bufnr)
  end, { nargs = '?', complete = function() return { 'tir', 'llvm', 'ptx', 'sass' } end })

  vim.api.nvim_buf_create_user_command(bufnr, 'TesselInlayHints', function(o)
    local client = tessel_client(bufnr)
    if not client then
      return
    end
    local on = o.args ~= 'off'
    client.notify('workspace/didChangeConfiguration', { settings = { tessel = { inlayHints = { enable = on } } } })
    if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
      pcall(vim.lsp.inlay_hint.enable, on, { bufnr = bufnr })
    end
  end, { nargs = '?', complete = function() return { 'on', 'off' } end })
end

function M.on_attach(client, bufnr)
  define_commands(bufnr)
  -- Neovim 0.10+ draws inlay hints; 0.7-0.9 can only request them.
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
  end
  if vim.lsp.codelens then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      buffer = bufnr,
      callback = function() pcall(vim.lsp.codelens.refresh) end,
    })
    pcall(vim.lsp.codelens.refresh)
  end
end

-- A buffer that gains `import triton` after it was opened (a new, unsaved
-- file being written) is attached once the import is typed.
local function watch_new_buffers(cfg, attach)
  vim.api.nvim_create_autocmd({ 'InsertLeave', 'TextChanged' }, {
    callback = function(args)
      if vim.tbl_contains(cfg.filetypes, vim.bo[args.buf].filetype) then
        attach(args.buf)
      end
    end,
  })
end

function M.setup(opts)
  local cfg = vim.tbl_deep_extend('force', M.defaults, opts or {})
  M.run_device = cfg.run_device
  -- The runners reach the server at start and on every didChangeConfiguration.
  cfg.init_options.defaultRunner = cfg.default_runner
  cfg.init_options.runners = cfg.runners
  cfg.settings.tessel.defaultRunner = cfg.default_runner
  cfg.settings.tessel.runners = cfg.runners
  -- A user's cmd replaces the default list whole (tbl_deep_extend merges lists by index).
  cfg.cmd = M.server_cmd((opts and opts.cmd) or M.defaults.cmd, cfg.log_level)
  cfg.capabilities = M.client_capabilities(cfg.capabilities)
  M.filter_codelens()
  M.register_lens_commands()
  local on_attach = function(client, bufnr)
    M.on_attach(client, bufnr)
    if cfg.on_attach then
      cfg.on_attach(client, bufnr)
    end
  end

  if vim.fn.has('nvim-0.11') == 1 and vim.lsp.config and vim.lsp.enable then
    vim.lsp.config('tessel', {
      cmd = cfg.cmd,
      filetypes = cfg.filetypes,
      -- Calling on_dir only for triton files keeps the server off other Python.
      root_dir = function(bufnr, on_dir)
        if M.imports_triton(bufnr) then
          on_dir(find_root(bufnr, cfg.root_markers))
        end
      end,
      init_options = cfg.init_options,
      settings = cfg.settings,
      handlers = M.handlers,
      capabilities = cfg.capabilities,
      flags = cfg.flags,
      on_attach = on_attach,
    })
    vim.lsp.enable('tessel')
    watch_new_buffers(cfg, function(bufnr)
      if M.imports_triton(bufnr) and not tessel_client(bufnr) then
        -- vim.lsp.enable attaches on FileType; replay only its autocommand.
        pcall(vim.api.nvim_exec_autocmds, 'FileType', { group = 'nvim.lsp.enable', buffer = bufnr })
      end
    end)
    return
  end

  -- Neovim 0.7-0.10: one client per root, attached by hand.
  local clients = {}
  local function attach(bufnr)
    if not M.imports_triton(bufnr) or tessel_client(bufnr) then
      return
    end
    local root = find_root(bufnr, cfg.root_markers)
    local id = clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client({
        name = 'tessel',
        cmd = cfg.cmd,
        root_dir = root,
        init_options = cfg.init_options,
        settings = cfg.settings,
        handlers = M.handlers,
        -- The user's capabilities (nvim-cmp's, say) and flags pass through.
        capabilities = cfg.capabilities,
        flags = cfg.flags,
        on_attach = on_attach,
        on_init = function(client)
          client.notify('workspace/didChangeConfiguration', { settings = cfg.settings })
        end,
      })
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
  vim.api.nvim_create_autocmd('FileType', {
    pattern = cfg.filetypes,
    callback = function(args) attach(args.buf) end,
  })
  watch_new_buffers(cfg, attach)
end

return M

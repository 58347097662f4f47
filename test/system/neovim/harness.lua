-- Runs a plan of steps in a headless Neovim (0.7 and later) and writes what each step found
-- as JSON, for test/system/neovim.test.ts. The plan is the JSON file named by
-- $LPREQ_NVIM_PLAN: { "results": PATH, "steps": [ { "step": NAME, ...arguments }, ... ] }.
-- The results file holds { "results": [ { "step", "ok", "value" | "error" } ], "messages" }.
-- The first step that fails ends the plan, and Neovim quits whatever happened, so the test
-- never waits for more than its own timeout.
--
-- A new step is a function in `steps` below taking the step's table and returning what the
-- test should see (plain tables, strings, numbers and booleans).

local plan = vim.json.decode(table.concat(vim.fn.readfile(os.getenv('LPREQ_NVIM_PLAN')), '\n'))

-- Every publication of diagnostics, counted per URI, so that a step can wait for the next one.
local published = {}
local seen = {}
local publish_diagnostics = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  publish_diagnostics(err, result, ctx, config)
  if result and result.uri then
    published[result.uri] = (published[result.uri] or 0) + 1
  end
end

local function wait_for(what, timeout_ms, condition)
  if not vim.wait(timeout_ms or 10000, condition, 20) then
    error(what .. ': not within ' .. (timeout_ms or 10000) .. ' ms', 0)
  end
end

-- The lpreq client attached to the current buffer (vim.lsp.get_clients is 0.10's name).
local function lpreq_client()
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = 0 }) or vim.lsp.buf_get_clients(0)
  for _, client in pairs(clients) do
    if client.name == 'lpreq' then
      return client
    end
  end
  return nil
end

local function current_uri()
  return vim.uri_from_bufnr(vim.api.nvim_get_current_buf())
end

local steps = {}

-- Opens a file as a user would (:edit) and waits until the lpreq server is attached to it.
function steps.open(step)
  vim.cmd('edit ' .. vim.fn.fnameescape(step.path))
  local what = 'the lpreq server attached to ' .. step.path .. " (file type '" .. vim.bo.filetype .. "')"
  wait_for(what, step.timeout_ms, function()
    return lpreq_client() ~= nil
  end)
  return { filetype = vim.bo.filetype, client = lpreq_client().name }
end

-- Waits for the next publication of diagnostics for the current buffer, and lists them as
-- Neovim holds them (0-based lines and columns).
function steps.diagnostics(step)
  local uri = current_uri()
  local before = seen[uri] or 0
  wait_for('diagnostics for ' .. uri, step.timeout_ms, function()
    return (published[uri] or 0) > before
  end)
  seen[uri] = published[uri]
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(list, { code = d.code, line = d.lnum, column = d.col, severity = d.severity, source = d.source })
  end
  return list
end

-- Inserts lines before the 0-based line `line` of the current buffer, as typing would.
function steps.insert(step)
  vim.api.nvim_buf_set_lines(0, step.line, step.line, true, step.lines)
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, true), '\n')
end

-- Asks the lpreq server for completion at a 0-based position through Neovim's client,
-- which first sends the buffer's pending changes.
function steps.complete(step)
  local client = lpreq_client()
  if client == nil then
    error('no lpreq server attached', 0)
  end
  local params = { textDocument = { uri = current_uri() }, position = { line = step.line, character = step.character } }
  local answer, err
  if vim.fn.has('nvim-0.11') == 1 then
    answer, err = client:request_sync('textDocument/completion', params, step.timeout_ms or 10000, 0)
  else
    answer, err = client.request_sync('textDocument/completion', params, step.timeout_ms or 10000, 0)
  end
  if answer == nil then
    error('completion: ' .. tostring(err), 0)
  end
  if answer.err then
    error('completion: ' .. vim.inspect(answer.err), 0)
  end
  local items = answer.result and (answer.result.items or answer.result) or {}
  local labels = {}
  for _, item in ipairs(items) do
    table.insert(labels, item.label)
  end
  return labels
end

-- Runs an Ex command (a user command of the configuration, for instance).
function steps.command(step)
  vim.cmd(step.command)
  return true
end

-- Asks the server for the current buffer's code lenses as a configuration does
-- (vim.lsp.codelens.refresh) and lists them once they are there.
function steps.codelens(step)
  vim.lsp.codelens.refresh()
  wait_for('code lenses', step.timeout_ms, function()
    return #vim.lsp.codelens.get(0) > 0
  end)
  local list = {}
  for _, lens in ipairs(vim.lsp.codelens.get(0)) do
    table.insert(list, { line = lens.range.start.line, title = lens.command and lens.command.title, command = lens.command and lens.command.command })
  end
  return list
end

-- Answers the questions the configuration asks through vim.ui.select, in order: each call
-- picks the item whose title is the next answer (nothing when none is). What was asked is
-- kept for the `asked` step.
local answers = {}
local asked = {}
vim.ui.select = function(items, opts, on_choice)
  local titles = {}
  local picked = nil
  local wanted = table.remove(answers, 1)
  for _, item in ipairs(items) do
    local title = opts and opts.format_item and opts.format_item(item) or tostring(item)
    table.insert(titles, title)
    if title == wanted then
      picked = item
    end
  end
  table.insert(asked, { prompt = opts and opts.prompt or '', items = titles })
  on_choice(picked)
end

-- The answers the next questions get (vim.ui.select), in order.
function steps.answer(step)
  answers = step.answers
  return true
end

-- What the configuration asked through vim.ui.select since the last `asked` step.
function steps.asked()
  local list = asked
  asked = {}
  return list
end

-- Runs the code lens titled `title` on the 0-based `line` as a user does: the cursor on the
-- line, vim.lsp.codelens.run(), and the lens picked from the list Neovim offers
-- (vim.ui.select); `answers` answer the questions that follow. Returns the lenses offered.
function steps.run_lens(step)
  vim.api.nvim_win_set_cursor(0, { step.line + 1, 0 })
  answers = { step.title }
  for _, a in ipairs(step.answers or {}) do
    table.insert(answers, a)
  end
  local before = #asked
  local ok, err = pcall(vim.lsp.codelens.run)
  if not ok then
    error(err, 0)
  end
  local offered = asked[before + 1]
  return offered and offered.items or {}
end

-- Moves the cursor to the 0-based `line` of the current window.
function steps.cursor(step)
  vim.api.nvim_win_set_cursor(0, { step.line + 1, 0 })
  return true
end

-- Waits for the next publication of diagnostics on a file the server wrote (a response
-- file), then returns its text, its diagnostics as Neovim holds them, and whether a window
-- shows it.
function steps.response(step)
  local uri = vim.uri_from_fname(step.path)
  local before = seen[uri] or 0
  wait_for('diagnostics on ' .. step.path, step.timeout_ms, function()
    return (published[uri] or 0) > before
  end)
  seen[uri] = published[uri]
  local bufnr = vim.uri_to_bufnr(uri)
  -- The window opens when the command's answer arrives, right after the diagnostics.
  vim.wait(step.timeout_ms or 10000, function()
    return vim.fn.bufwinid(bufnr) ~= -1
  end, 20)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, { code = d.code, line = d.lnum, column = d.col, severity = d.severity })
  end
  -- Where the response's window stands against the request's (the current one): row and column on the screen.
  local window = vim.fn.bufwinid(bufnr)
  local at = window ~= -1 and vim.fn.win_screenpos(window) or { 0, 0 }
  local request = vim.fn.win_screenpos(vim.api.nvim_get_current_win())
  return {
    text = table.concat(vim.fn.readfile(step.path), '\n'),
    diagnostics = list,
    shown = window ~= -1,
    window = { row = at[1], column = at[2] },
    request = { row = request[1], column = request[2] },
  }
end

-- Waits until a register holds `contains` (a command of the configuration puts its answer
-- there when it arrives), and returns the register's value.
function steps.register(step)
  wait_for('register ' .. step.name, step.timeout_ms, function()
    return string.find(vim.fn.getreg(step.name), step.contains, 1, true) ~= nil
  end)
  return vim.fn.getreg(step.name)
end

local results = {}
local ok, failure = pcall(function()
  for _, step in ipairs(plan.steps) do
    local run = steps[step.step]
    local done, value
    if run == nil then
      done, value = false, 'no such step: ' .. tostring(step.step)
    else
      done, value = pcall(run, step)
    end
    if done then
      table.insert(results, { step = step.step, ok = true, value = value })
    else
      table.insert(results, { step = step.step, ok = false, error = tostring(value) })
      break
    end
  end
end)
if not ok then
  table.insert(results, { step = 'harness', ok = false, error = tostring(failure) })
end
local messages = vim.api.nvim_exec('messages', true)
vim.fn.writefile({ vim.json.encode({ results = results, messages = messages }) }, plan.results)
vim.cmd('qall!')

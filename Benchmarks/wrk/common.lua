-- Shared by get_state.lua and push_pop.lua (loaded with dofile; wrk runs each script once per
-- thread, in that thread's own Lua state, and once more in the main state for setup/done).
--
-- SESSIONS_FILE names a file of sessions, one "ID TOKEN" a line, created beforehand with
-- POST /v1/sessions (run-http.sh does that).

local common = {}

function common.read_sessions()
  local path = os.getenv("SESSIONS_FILE")
  if not path or path == "" then
    error("set SESSIONS_FILE to a file of 'ID TOKEN' lines (see Benchmarks/run-http.sh)")
  end
  local file = assert(io.open(path, "r"))
  local sessions = {}
  for line in file:lines() do
    local id, token = line:match("^(%S+)%s+(%S+)")
    if id then
      sessions[#sessions + 1] = { id = id, token = token }
    end
  end
  file:close()
  if #sessions == 0 then
    error("no sessions in " .. path)
  end
  return sessions
end

-- One machine-readable line after wrk's own report, read by run-http.sh.
-- Latency figures are in microseconds.
function common.report(summary, latency)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "WRK_RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d max_us=%d " ..
      "errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end

return common

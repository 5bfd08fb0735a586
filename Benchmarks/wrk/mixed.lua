-- Mixed load over many sessions (issue 5's load run): 80% GET state, 20% mutations that always
-- succeed (each session alternates push and pop). Each wrk thread takes its own slice of the
-- sessions in SESSIONS_FILE and walks it round robin, so a session is never hit by two requests
-- at once and its push/pop order holds.
local common = dofile(os.getenv("WRK_DIR") .. "/common.lua")

local sessions
local slice_start, slice_size
local position = 0
local pushed = {}
local counter = 0
local thread_index = 0
local thread_count = tonumber(os.getenv("WRK_THREADS") or "2")

function setup(thread)
  thread:set("thread_index", thread_index)
  thread_index = thread_index + 1
end

function init(args)
  sessions = common.read_sessions()
  slice_size = math.floor(#sessions / thread_count)
  slice_start = thread_index * slice_size
end

function request()
  position = (position % slice_size) + 1
  counter = counter + 1
  local session = sessions[slice_start + position]
  local headers = { ["Authorization"] = "Bearer " .. session.token, ["Content-Type"] = "application/json" }
  local base = "/v1/sessions/" .. session.id
  if counter % 5 ~= 0 then
    return wrk.format("GET", base .. "?lists=summary", headers)
  end
  if pushed[position] then
    pushed[position] = false
    return wrk.format("POST", base .. "/pop", headers, "{}")
  end
  pushed[position] = true
  return wrk.format("POST", base .. "/push", headers, '{"screen": "profile", "params": {"userId": "1"}}')
end

function done(summary, latency, requests)
  common.report(summary, latency)
end

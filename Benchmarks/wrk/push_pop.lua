-- wrk script: POST /v1/sessions/{id}/push {"screen":"profile","params":{"userId":"1"}} and POST .../pop {} in turn,
-- each session used by one request at a time, so every session's stack stays bounded
-- (root, then root + profile, then root again …) and no request can fail for its order.
--
--   WRK_THREADS=2 SESSIONS_FILE=sessions.txt \
--     wrk -t2 -c64 -d10s --latency -s push_pop.lua http://127.0.0.1:8080
--
-- wrk does not tell a script which connection a request goes on, so "one session per
-- connection" is kept like this: thread T of WRK_THREADS takes lines T+1, T+1+WRK_THREADS, …
-- of SESSIONS_FILE (give at least as many sessions as connections); request() takes the session
-- that has waited longest with no request in flight, and response() puts the session named at
-- the start of the answer ({"id":"s_…", as both servers answer) at the back of that queue. So
-- requests go round every session in turn, as many users would send them, not to the few a
-- stack would keep hot. A thread never has more requests in flight than connections, so with a
-- session per connection a free one is always there. At the end wrk prints
-- WRK_PUSH_POP starved=… unmatched=…: both must be 0 (run-http.sh checks), and
-- WRK_SPREAD sessions=… mean=… min=… max=…: the requests each session got (run-durability.sh
-- checks that every session's share is within 10% of the mean).

package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")

local threads = {}

-- Main state: number the threads before they start.
function setup(thread)
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

-- Sessions with no request in flight, oldest first: a queue in free[head .. tail].
local free, head, tail = {}, 1, 0
local by_id = {}       -- id -> session
starved = 0            -- requests sent on a busy session (should stay 0); global for thread:get
unmatched = 0          -- answers that named no session (should stay 0)
counts = {}            -- id -> requests sent on it; global for thread:get
local push_body = '{"screen":"profile","params":{"userId":"1"}}'
local pop_body = '{}'

function init(args)
  local index = thread_index or 0
  local count = tonumber(os.getenv("WRK_THREADS") or "1")
  for i, session in ipairs(common.read_sessions()) do
    if (i - 1) % count == index then
      session.push_next = true
      session.push_request = wrk.format("POST", "/v1/sessions/" .. session.id .. "/push", {
        ["Authorization"] = "Bearer " .. session.token,
        ["Content-Type"] = "application/json",
      }, push_body)
      session.pop_request = wrk.format("POST", "/v1/sessions/" .. session.id .. "/pop", {
        ["Authorization"] = "Bearer " .. session.token,
        ["Content-Type"] = "application/json",
      }, pop_body)
      by_id[session.id] = session
      counts[session.id] = 0
      tail = tail + 1
      free[tail] = session
    end
  end
  if tail == 0 then
    error("thread " .. index .. " got no session: SESSIONS_FILE has too few lines")
  end
  last = free[head]
  -- wrk calls thread 0's request() once before the run, only to check the request it
  -- returns (script_verify_request); that call must not take a session or flip its turn.
  verifying = index == 0
end

function request()
  if verifying then
    verifying = false
    return free[head].push_request
  end
  local session
  if head <= tail then
    session = free[head]
    free[head] = nil
    head = head + 1
  else
    starved = starved + 1
    session = last
  end
  last = session
  counts[session.id] = counts[session.id] + 1
  local text
  if session.push_next then text = session.push_request else text = session.pop_request end
  session.push_next = not session.push_next
  return text
end

function response(status, headers, body)
  local id = body:match('^{"id":"([^"]+)"')
  local session = id and by_id[id]
  if session then
    tail = tail + 1
    free[tail] = session
  else
    unmatched = unmatched + 1
  end
end

function done(summary, latency, requests)
  common.report(summary, latency)
  local busy, lost = 0, 0
  local sessions, total, least, most = 0, 0, math.huge, 0
  for _, thread in ipairs(threads) do
    busy = busy + (thread:get("starved") or 0)
    lost = lost + (thread:get("unmatched") or 0)
    for _, count in pairs(thread:get("counts") or {}) do
      sessions = sessions + 1
      total = total + count
      least = math.min(least, count)
      most = math.max(most, count)
    end
  end
  io.write(string.format("WRK_PUSH_POP starved=%d unmatched=%d\n", busy, lost))
  io.write(string.format("WRK_SPREAD sessions=%d mean=%.1f min=%d max=%d\n", sessions, total / math.max(sessions, 1), least, most))
end

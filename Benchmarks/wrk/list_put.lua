-- wrk script: PUT /v1/sessions/{id}/nodes/{node}/list with a 20-item list, so that every
-- request replaces a list and computes a real diff (the answer is 200 {"version", "diff"}).
--
--   WRK_THREADS=2 SESSIONS_FILE=sessions.txt LIST_NODE=n1 \
--     wrk -t2 -c64 -d10s --latency -s list_put.lua http://127.0.0.1:8080
--
-- The bodies are list_put/a.json, b.json and c.json: one section "followers" of 20 cells
-- {"id": "u<i>", "kind": "user", "content": {"name", "followers"}}, each a few changes from
-- the one before, in a cycle:
--   a -> b: u17 deleted, u20 inserted, u3 and u15 moved, u5 updated;
--   b -> c: u8 and u16 deleted, u21 and u22 inserted, u0 moved, u3 and u12 updated;
--   c -> a: the reverse of both.
-- Their lengths differ (1452, 1454 and 1455 bytes), which is how hummingbird-peer tells which
-- answer to give.
--
-- Each session PUTs a, b, c, a, … to LIST_NODE (default n1, the demo app's home tab root).
-- run-http.sh PUTs c to every session before the run, so the first PUT is c -> a.
-- The answer does not name its session, so wrk cannot keep one request per session in flight
-- as push_pop.lua does. Instead thread T of WRK_THREADS takes lines T+1, T+1+WRK_THREADS, … of
-- SESSIONS_FILE and walks them round robin; run-http.sh gives it several sessions per
-- connection (LIST_PUT_SESSIONS), so a session is used again only after all the others.
-- Two PUTs of one session in flight at once would still both succeed (the server serializes
-- them); only their order could make one of them repeat the list it replaces, an empty diff.
-- With three bodies in a cycle that takes three in flight at once. Answers with an empty item
-- diff are counted: at the end wrk prints WRK_LIST_PUT empty=…, which should be 0
-- (run-http.sh warns otherwise).

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local common = require("common")

local threads = {}

-- Main state: number the threads before they start.
function setup(thread)
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

local function read_file(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

local mine = {}         -- this thread's sessions, each with its three requests
local position = 0
empty = 0               -- answers with an empty item diff (should stay 0); global for thread:get
local empty_items = '"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}'

function init(args)
  local index = thread_index or 0
  local count = tonumber(os.getenv("WRK_THREADS") or "1")
  local node = os.getenv("LIST_NODE") or "n1"
  local bodies = {
    read_file(here .. "list_put/a.json"),
    read_file(here .. "list_put/b.json"),
    read_file(here .. "list_put/c.json"),
  }
  for i, session in ipairs(common.read_sessions()) do
    if (i - 1) % count == index then
      local path = "/v1/sessions/" .. session.id .. "/nodes/" .. node .. "/list"
      local headers = {
        ["Authorization"] = "Bearer " .. session.token,
        ["Content-Type"] = "application/json",
      }
      session.requests = {}
      for b, body in ipairs(bodies) do
        session.requests[b] = wrk.format("PUT", path, headers, body)
      end
      session.next = 1
      mine[#mine + 1] = session
    end
  end
  if #mine == 0 then
    error("thread " .. index .. " got no session: SESSIONS_FILE has too few lines")
  end
  -- wrk calls thread 0's request() once before the run, only to check the request it
  -- returns (script_verify_request); that call must not move any session's turn.
  verifying = index == 0
end

function request()
  if verifying then
    verifying = false
    return mine[1].requests[1]
  end
  position = position % #mine + 1
  local session = mine[position]
  local text = session.requests[session.next]
  session.next = session.next % 3 + 1
  return text
end

function response(status, headers, body)
  if body:find(empty_items, 1, true) then
    empty = empty + 1
  end
end

function done(summary, latency, requests)
  common.report(summary, latency)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + (thread:get("empty") or 0)
  end
  io.write(string.format("WRK_LIST_PUT empty=%d\n", total))
end

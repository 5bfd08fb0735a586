-- wrk script: GET /v1/sessions/{id} on one session, with its bearer token, on every connection.
--
--   SESSIONS_FILE=sessions.txt wrk -t2 -c64 -d10s --latency -s get_state.lua http://127.0.0.1:8080
--
-- Uses the first "ID TOKEN" line of SESSIONS_FILE. The request is static (no request()
-- function), so wrk builds it once per thread and spends no Lua time per request.

package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")

local session = common.read_sessions()[1]
wrk.method = "GET"
wrk.path = "/v1/sessions/" .. session.id
wrk.headers["Authorization"] = "Bearer " .. session.token

function done(summary, latency, requests)
  common.report(summary, latency)
end

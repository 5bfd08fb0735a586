-- wrk script: GET /healthz, the smallest answer both servers give ({"status":"ok"}, no token,
-- no session). It measures the HTTP layer alone: the ceiling for the other scenarios' ratios.
--
--   wrk -t2 -c64 -d10s --latency -s health.lua http://127.0.0.1:8080

package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local common = require("common")

wrk.method = "GET"
wrk.path = "/healthz"

function done(summary, latency, requests)
  common.report(summary, latency)
end

-- The one wrk script of the benchmarks (bench/lib/wrk.ts), configured by environment variables:
--   BENCH_METHOD, BENCH_PATH, BENCH_BODY (optional), BENCH_TOKEN (optional bearer key),
--   BENCH_IDS_FILE (optional, one message id per line).
-- In BENCH_PATH and BENCH_BODY, {msisdn} becomes a random Zimbabwean recipient (all three carriers)
-- and {id} a random id from BENCH_IDS_FILE, drawn anew for every request.
local method = os.getenv("BENCH_METHOD") or "GET"
local path_template = os.getenv("BENCH_PATH") or "/"
local body_template = os.getenv("BENCH_BODY")
local token = os.getenv("BENCH_TOKEN")
local ids_file = os.getenv("BENCH_IDS_FILE")

local ids = {}
if ids_file then
  for line in io.lines(ids_file) do ids[#ids + 1] = line end
end

-- 730 is not a Telecel range, so every prefix names its third digit.
local prefixes = { "263771", "263781", "263711", "263731" }
local headers = {}
if token then headers["Authorization"] = "Bearer " .. token end
if body_template then headers["Content-Type"] = "application/json" end

local function random_msisdn()
  -- Ends in 9: never one of the SMSC simulator's magic endings 0001-0008.
  return prefixes[math.random(#prefixes)] .. string.format("%05d", math.random(0, 99999)) .. "9"
end

local function random_id()
  return ids[math.random(#ids)]
end

local function fill(template)
  local text = template:gsub("{msisdn}", random_msisdn)
  text = text:gsub("{id}", random_id)
  return text
end

function init(args)
  math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1000000) + #tostring({}))
end

function request()
  local body = nil
  if body_template then body = fill(body_template) end
  return wrk.format(method, fill(path_template), headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end

-- wrk script: with a targets file (one "path<TAB>token<TAB>json body" line per campaign), each
-- request is a roll in a random campaign's open scene; without one, wrk's own request (GET url).
-- Either way it ends with one "BENCH {json}" line that bench/load/workload.py reads.

local targets = {}

function init(args)
  if args[1] then
    for line in io.lines(args[1]) do
      local path, token, body = line:match("^([^\t]+)\t([^\t]+)\t(.+)$")
      targets[#targets + 1] = wrk.format("POST", path, {
        ["Authorization"] = "Bearer " .. token,
        ["Content-Type"] = "application/json",
      }, body)
    end
  end
  -- Which campaign each request picks is load shaping, not dice: Lua's generator is fine here.
  math.randomseed(os.time() + tonumber(tostring(targets):match("0x(%x+)") or "0", 16) % 1000)
end

function request()
  if #targets == 0 then
    return wrk.format()
  end
  return targets[math.random(#targets)]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "status": %d, "connect": %d, "read": %d, ' ..
    '"write": %d, "timeout": %d, "mean_us": %.1f, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"max_us": %d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end

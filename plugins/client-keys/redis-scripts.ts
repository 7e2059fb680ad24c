/**
 * The Lua scripts that keep a key's limits exact across a fleet: Redis runs each atomically, so two
 * instances can never both take the last request or token of a window.
 *
 * Keys per client-key name: `r:<window>` requests in a minute window, `t:<window>` committed tokens,
 * `held` a sorted set of reservations (`<id>|<window>|<tokens>|<nano>`, scored by when they lapse),
 * `s:<period id>` nano-dollars spent per period (day, week, month, total).
 */

/**
 * The keys one script touches for a key name, under `client-keys:{<name>}:`: the name is a hash tag, so a
 * Redis Cluster keeps them in one slot (it refuses a script across slots with CROSSSLOT). Braces in a
 * name are escaped: they would end the tag early or leave it empty.
 */
export function limitKeys(key: (name: string) => string, name: string, window: number, periods: readonly string[]): string[] {
  const part = (suffix: string) => key(`client-keys:${hashTag(name)}:${suffix}`)
  return [part(`r:${window}`), part(`t:${window}`), part('held'), ...periods.map(id => part(`s:${id}`))]
}

/** The marker of a written settlement, in the same slot as the key's counters (the commit script touches both). */
export const settlementDoneKey = (key: (name: string) => string, name: string, id: string) => key(`client-keys:${hashTag(name)}:done:${id}`)

const hashTag = (name: string) => `{${name.replace(/[%{}]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}}`

/** Drops lapsed reservations, then sums the held tokens of this window (ARGV[2]) and the held cost. */
const heldSums = `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local heldTokens, heldNano = 0, 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  local window, t, n = string.match(member, '^[^|]*|(%d+)|(%d+)|(%d+)$')
  if window == ARGV[2] then heldTokens = heldTokens + tonumber(t) end
  if n then heldNano = heldNano + tonumber(n) end
end`

/**
 * KEYS: requests, tokens, held, spend (4: day, week, month, total), the done marker of this
 * reservation's admission (`admit:<hold id>`).
 * ARGV: now, window, rpm, tpm, budget nano (0 = none), budget slot (1-4, 0 = none), member, lapses at,
 * window left ms, budget period left ms.
 * Returns {admitted, reason, retry ms, requests, tokens, held tokens, held nano, spend x4}.
 * A reservation whose reply the instance stopped waiting for may run long after (Redis paused, then
 * resumed); if the instance has meanwhile written back what it decided on its own (the marker), it
 * changes nothing.
 */
export const reserveScript = `
if redis.call('EXISTS', KEYS[8]) == 1 then return {0, 'late', 0, 0, 0, 0, 0, 0, 0, 0, 0} end
local now = tonumber(ARGV[1])
${heldSums}
local requests = tonumber(redis.call('GET', KEYS[1]) or '0')
local tokens = tonumber(redis.call('GET', KEYS[2]) or '0')
local spend = {}
for i = 1, 4 do spend[i] = tonumber(redis.call('GET', KEYS[3 + i]) or '0') end
local function answer(admitted, reason, retry, count)
  return {admitted, reason, retry, count, tokens, heldTokens, heldNano, spend[1], spend[2], spend[3], spend[4]}
end
local rpm, tpm, budget, slot = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if rpm > 0 and requests >= rpm then return answer(0, 'rpm', ARGV[9], requests) end
if tpm > 0 and tokens + heldTokens >= tpm then return answer(0, 'tpm', ARGV[9], requests) end
if slot > 0 and spend[slot] + heldNano >= budget then return answer(0, 'budget', ARGV[10], requests) end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 120000)
redis.call('ZADD', KEYS[3], ARGV[8], ARGV[7])
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[8]) - now + 60000)
return answer(1, '', 0, requests + 1)
`

/**
 * Settle a reservation, or add what an instance counted while Redis was away: once per settlement id
 * (a replay, say by a reconciliation that ran twice, changes nothing and answers 0).
 * KEYS: requests, tokens, held, spend x4, the settlement's done marker. ARGV: member ('' = none),
 * requests, tokens, nano, keep ms x4 (0 = forever), how long the done marker is kept (ms), '1' when
 * this is an admission decided locally after its reservation was sent and unanswered: if that
 * reservation did run (its member is held), it already counted one request.
 * Returns 0 for a replay, else {1, requests, tokens, spend x4} as they are now.
 */
export const commitScript = `
if not redis.call('SET', KEYS[8], '1', 'NX', 'PX', ARGV[9]) then return 0 end
local removed = 0
if ARGV[1] ~= '' then removed = redis.call('ZREM', KEYS[3], ARGV[1]) end
local requests, tokens, nano = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if ARGV[10] == '1' and removed == 1 then requests = requests - 1 end
if requests ~= 0 then
  redis.call('INCRBY', KEYS[1], requests)
  redis.call('PEXPIRE', KEYS[1], 120000)
end
if tokens > 0 then
  redis.call('INCRBY', KEYS[2], tokens)
  redis.call('PEXPIRE', KEYS[2], 120000)
end
if nano > 0 then
  for i = 1, 4 do
    redis.call('INCRBY', KEYS[3 + i], nano)
    local keep = tonumber(ARGV[4 + i])
    if keep > 0 then redis.call('PEXPIRE', KEYS[3 + i], keep) end
  end
end
local out = {1, tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(redis.call('GET', KEYS[2]) or '0')}
for i = 4, 7 do out[#out + 1] = tonumber(redis.call('GET', KEYS[i]) or '0') end
return out
`

/**
 * Raise a key's counters to an instance's last view of them (never lower them): Redis came back empty,
 * or from an older snapshot, and the counters it kept are below what they had been.
 * KEYS: requests, tokens, held (not touched), spend per period (any number). ARGV: requests, tokens,
 * then per period its nano-dollars and how long to keep it (ms, 0 = forever).
 */
export const floorScript = `
local function raise(key, value, keep)
  if value > 0 and tonumber(redis.call('GET', key) or '0') < value then
    redis.call('SET', key, value)
    if keep > 0 then redis.call('PEXPIRE', key, keep) end
  end
end
raise(KEYS[1], tonumber(ARGV[1]), 120000)
raise(KEYS[2], tonumber(ARGV[2]), 120000)
for i = 4, #KEYS do raise(KEYS[i], tonumber(ARGV[2 * i - 5]), tonumber(ARGV[2 * i - 4])) end
return 1
`

/** KEYS: requests, tokens, held, spend x4; ARGV: now, window. Returns {requests, tokens, held tokens, held nano, spend x4}. */
export const readScript = `
local now = tonumber(ARGV[1])
${heldSums}
local out = {tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(redis.call('GET', KEYS[2]) or '0'), heldTokens, heldNano}
for i = 4, 7 do out[#out + 1] = tonumber(redis.call('GET', KEYS[i]) or '0') end
return out
`

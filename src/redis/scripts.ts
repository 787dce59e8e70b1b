/**
 * The Lua scripts of the Redis store: each store operation that reads and writes is one
 * script, so that it is atomic and one round trip.
 *
 * Layout, every key starting with the store's hash tag `{prefix}` (one slot, so the
 * scripts run on Redis Cluster):
 *
 * - `open`: hash, conversation id → generation of its open conversation.
 * - `idle`: sorted set, generation of each open conversation scored by its last activity.
 * - `leases`: sorted set, generation of each claimed conversation scored by its lease end.
 * - `c:<generation>`: hash `cid`, `user`, `last`, and once claimed `token`, `claimedAt`.
 * - `i:<generation>`: list of the stored interactions, JSON, in the order stored.
 * - `n:<generation>`: set of their ids, so that feedback finds its interaction at once.
 * - `f:<generation>`: hash, interaction id → its feedback actions, JSON joined by commas.
 *   Kept apart from the interaction's JSON because Lua's cjson does not round-trip JSON
 *   (an empty array comes back `{}`, numbers lose digits): no script decodes JSON.
 * - the keys of sent interactions, named by the client (see `keys.ts`), with a TTL.
 *
 * Every script takes `KEYS[1]` = the `open` key (so that a cluster client routes it to
 * the store's shard) and `ARGV[1]` = the hash tag, from which it names the other keys.
 * Numbers travel as the strings the client wrote, so no precision is lost in Lua.
 */

/**
 * Takes the conversation `gen` for a lease and answers it as
 * `[gen, token, cid, user, last, items, feedbackFieldsAndValues]`.
 */
const TAKE = `
local function take(tag, gen, token, leaseUntil, now)
  local meta = tag .. 'c:' .. gen
  redis.call('HSET', meta, 'token', token, 'claimedAt', now)
  redis.call('ZADD', tag .. 'leases', leaseUntil, gen)
  local m = redis.call('HMGET', meta, 'cid', 'user', 'last')
  return { gen, token, m[1], m[2], m[3], redis.call('LRANGE', tag .. 'i:' .. gen, 0, -1), redis.call('HGETALL', tag .. 'f:' .. gen) }
end
`;

/**
 * ARGV: tag, conversation id, end user, now, new generation, then (id, JSON) per
 * interaction. Creates the open conversation when none is, unless there is nothing to add.
 * An interaction whose id the conversation holds already is not added again: an append
 * that timed out on the client may still run once the connection is back, and the
 * caller may have tried again meanwhile.
 */
const APPEND = `
local tag, cid = ARGV[1], ARGV[2]
local gen = redis.call('HGET', KEYS[1], cid)
if not gen then
  if #ARGV < 7 then return 0 end
  gen = ARGV[5]
  redis.call('HSET', KEYS[1], cid, gen)
  redis.call('HSET', tag .. 'c:' .. gen, 'cid', cid, 'user', ARGV[3])
end
for i = 6, #ARGV - 1, 2 do
  if redis.call('SADD', tag .. 'n:' .. gen, ARGV[i]) == 1 then redis.call('RPUSH', tag .. 'i:' .. gen, ARGV[i + 1]) end
end
redis.call('HSET', tag .. 'c:' .. gen, 'last', ARGV[4])
redis.call('ZADD', tag .. 'idle', ARGV[4], gen)
return 1
`;

/** ARGV: tag, conversation id, interaction id, action JSON, now. 1 when attached. */
const ADD_FEEDBACK = `
local tag = ARGV[1]
local gen = redis.call('HGET', KEYS[1], ARGV[2])
if not gen then return 0 end
if redis.call('SISMEMBER', tag .. 'n:' .. gen, ARGV[3]) == 0 then return 0 end
local f = tag .. 'f:' .. gen
local before = redis.call('HGET', f, ARGV[3])
if before then redis.call('HSET', f, ARGV[3], before .. ',' .. ARGV[4]) else redis.call('HSET', f, ARGV[3], ARGV[4]) end
redis.call('HSET', tag .. 'c:' .. gen, 'last', ARGV[5])
redis.call('ZADD', tag .. 'idle', ARGV[5], gen)
return 1
`;

/** ARGV: tag, conversation id, now, lease end, token. The claim, or nil. */
const CLAIM = `${TAKE}
local tag = ARGV[1]
local gen = redis.call('HGET', KEYS[1], ARGV[2])
if not gen then return false end
redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('ZREM', tag .. 'idle', gen)
return take(tag, gen, ARGV[5], ARGV[4], ARGV[3])
`;

/**
 * ARGV: tag, idle bound, now, lease end, limit, token stem. Expired leases first (their
 * sender died or gave up), then the idlest open conversations, at most `limit` in all.
 */
const CLAIM_IDLE = `${TAKE}
local tag, now, leaseUntil, stem = ARGV[1], ARGV[3], ARGV[4], ARGV[6]
local limit = tonumber(ARGV[5])
local claims = {}
for _, gen in ipairs(redis.call('ZRANGEBYSCORE', tag .. 'leases', '-inf', now, 'LIMIT', 0, limit)) do
  claims[#claims + 1] = take(tag, gen, stem .. #claims, leaseUntil, now)
end
if #claims < limit then
  for _, gen in ipairs(redis.call('ZRANGEBYSCORE', tag .. 'idle', '-inf', ARGV[2], 'LIMIT', 0, limit - #claims)) do
    redis.call('HDEL', KEYS[1], redis.call('HGET', tag .. 'c:' .. gen, 'cid'))
    redis.call('ZREM', tag .. 'idle', gen)
    claims[#claims + 1] = take(tag, gen, stem .. #claims, leaseUntil, now)
  end
end
return claims
`;

/**
 * ARGV: tag, generation, token, retain until, then (key, JSON) per sent interaction.
 * Only the lease holder completes. The kept keys live from the claim to \`retainUntil\`
 * (the recorder's clock, not Redis's: a relative TTL, longer by the time the send took,
 * and \`sent()\` checks the exact end).
 */
const COMPLETE = `
local tag, gen = ARGV[1], ARGV[2]
local meta = tag .. 'c:' .. gen
local m = redis.call('HMGET', meta, 'token', 'claimedAt')
if m[1] ~= ARGV[3] then return 0 end
local ttl = math.floor(tonumber(ARGV[4]) - tonumber(m[2]))
if ttl > 0 then
  for i = 5, #ARGV - 1, 2 do redis.call('SET', ARGV[i], ARGV[i + 1], 'PX', ttl) end
end
redis.call('DEL', meta, tag .. 'i:' .. gen, tag .. 'n:' .. gen, tag .. 'f:' .. gen)
redis.call('ZREM', tag .. 'leases', gen)
return 1
`;

/** ARGV: tag, generation, token. Ends the lease now if the token still holds it. */
const RELEASE = `
local tag, gen = ARGV[1], ARGV[2]
if redis.call('HGET', tag .. 'c:' .. gen, 'token') ~= ARGV[3] then return 0 end
redis.call('ZADD', tag .. 'leases', '-inf', gen)
return 1
`;

/**
 * The store's scripts by operation, run by `RedisCommands.run` (EVALSHA, EVAL when the
 * server does not have them yet).
 *
 * @example
 * ```ts
 * await commands.run(SCRIPTS.release, [keys.open], [keys.tag, claim.generation, claim.token]);
 * ```
 */
export const SCRIPTS = {
  append: APPEND,
  addFeedback: ADD_FEEDBACK,
  claim: CLAIM,
  claimIdle: CLAIM_IDLE,
  complete: COMPLETE,
  release: RELEASE,
} as const;

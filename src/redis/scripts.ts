/**
 * The Lua scripts of the Redis store: each store operation that reads and writes is one
 * script, so that it is atomic and one round trip.
 *
 * Layout. The store's keys spread over `shards` buckets; a conversation lives in the
 * bucket its id hashes to (`buckets.ts`), and every key of a bucket starts with the
 * bucket's hash tag `{prefix<n>}` (one slot each, so that a cluster spreads the buckets
 * over its masters and every script's keys share a slot):
 *
 * - `idle`: sorted set, the bucket's index: conversation id of each open conversation
 *   scored by its last activity; `<claim id> <conversation id>` of each claimed one scored
 *   by {@link LEASES} + its lease end (above every activity time, so that one range reads
 *   each kind); and member `''` (no conversation id is empty), scored by the bucket's
 *   epoch: a random negative number written when the bucket was first used. A store that
 *   saw one epoch and meets another (or none) knows Redis lost the bucket's data: its
 *   index and leases with it, as one key (an eviction policy that evicts it is caught too,
 *   and no eviction takes the leases without the epoch).
 * - `o:<conversation id>`: hash, the open conversation: `cid`, `gen`, `user`, `last`,
 *   `seq`, and per interaction `#<seq>` → its JSON, `n:<id>` → its seq, and what was
 *   attached to it since: `f:<id>` → its feedback actions, `t:<id>` → its tags, each as
 *   JSON joined by commas in the order attached (apart from the interaction's JSON because
 *   Lua's cjson does not round-trip JSON: no script decodes JSON).
 * - `l:<claim id>`: hash, a claimed conversation: the open hash renamed, plus `token` and
 *   `claimedAt`.
 * - `k:<conversation id>`: hash, interaction id → `''` once appended (so that an append
 *   replayed after a time-out adds nothing twice, even once its conversation was sent), or
 *   what `sent()` answers once sent; it gets a TTL when its conversation is completed.
 *   And field `''` (no interaction id is empty) → the generation of the open conversation
 *   while it is neither claimed nor reported lost: what tells, once its open hash is gone,
 *   a loss not yet reported from a conversation claimed or told already. The script that
 *   claims the conversation or reports it lost removes the field in the same step, so that
 *   each loss is told once, by one caller, and never of a conversation that is sent.
 *   And per claim of it not yet completed nor told lost, field `\0<claim id>` → its lease
 *   end and generation: what puts the lease back when Redis lost the index that held it
 *   (the `lost` script), so that a claim whose holder dies is still swept (sent, or told
 *   lost). Whoever removes a claim's lease or this field first sends it or tells it lost.
 *   And per generation sent or told lost, field `\1<generation>` → `''`: what tells an
 *   instance that stored turns of that generation, once another generation is open (or
 *   the kept hash was made anew), that they were not lost unseen.
 *   And per call that told the conversation lost, field `\2<teller>` → the generation
 *   (see `done`): what tells that caller, if its reply never came, that it told a loss.
 *
 * Every key a script touches is in KEYS, named by the client: none is built from ARGV
 * or from what the script reads, so that Redis Cluster checks them all before it runs
 * (TRYAGAIN during a slot's migration, which `commands.ts` retries, never a failure
 * half-way). Numbers travel as the strings the client wrote, so no precision is lost.
 *
 * Memory. Scripts run without flags: Redis refuses, under `maxmemory` with `noeviction`,
 * a command that may grow memory (HSET, ZADD, …) only while the script has written
 * nothing yet. So the scripts that drain the store (claims, complete, release) free
 * first (ZREM, DEL, RENAME: never refused) and write after, and still run when Redis is
 * full; an append writes first, and is refused (reported) instead.
 *
 * Epochs. The scripts that check the epoch get ARGV[1] = the epoch the client last saw
 * of the bucket (`''` when none) and ARGV[2] = a new epoch, written when the bucket has
 * none. They answer `{'ok', epoch, result}`, or `{'lost', epoch}` (having done nothing)
 * when the client saw another epoch: Redis lost the bucket meanwhile.
 */

/** Checks the bucket's epoch (member `''` of the idle set, KEYS[1]); answers it, or nil and the epoch now. */
const EPOCH = `
local function epoch()
  local e = redis.call('ZSCORE', KEYS[1], '')
  if e == ARGV[1] then return e end
  if not e then
    redis.call('ZADD', KEYS[1], ARGV[2], '')
    e = redis.call('ZSCORE', KEYS[1], '')
    if ARGV[1] == '' then return e end
    return nil, e
  end
  if ARGV[1] == '' then return e end
  return nil, e
end
`;

/**
 * What the index adds to a lease's end for its score: 2^52, above every time in ms (and
 * below 2^53, so that the sum is exact); `lease(end)` is that score as Redis reads it.
 */
const LEASES = `
local LEASES = 4503599627370496
local function lease(leaseUntil) return string.format('%.17g', LEASES + tonumber(leaseUntil)) end
`;

/**
 * `done(kept, gen, teller)` notes in a kept hash that generation `gen` (if known) was sent
 * or told lost, and, when told lost, by which call (`teller`: an id of that call's, field
 * `\2<teller>` → the generation), so that a caller whose reply never came can still learn
 * it told a loss (TOLD); `unmark(kept)` removes the unsent mark and answers the generation it named (nil
 * when none), `unclaim(kept, claimId)` a claim mark and the generation it named (false
 * when there was no mark, `''` when it named none).
 */
const DONE = `
local function done(kept, gen, teller)
  if gen and gen ~= '' then redis.call('HSET', kept, '\\1' .. gen, '') end
  if teller then redis.call('HSET', kept, '\\2' .. teller, gen or '') end
end
local function unmark(kept)
  local gen = redis.call('HGET', kept, '')
  if gen then redis.call('HDEL', kept, '') end
  return gen
end
local function unclaim(kept, claimId)
  local mark = redis.call('HGET', kept, '\\0' .. claimId)
  if not mark then return false end
  redis.call('HDEL', kept, '\\0' .. claimId)
  return string.match(mark, ' (.*)$') or ''
end
`;

/**
 * Takes the conversation `cid` whose data is at `to` (already there: renamed from its open
 * hash, or an expired lease's) for a lease, noted in the index and in its kept hash:
 * `{'c', claim id, fields of the claim hash}`.
 */
const TAKE = `${LEASES}${DONE}
local function take(to, claimId, token, now, leaseUntil, idle, kept, cid)
  redis.call('HSET', to, 'token', token, 'claimedAt', now)
  redis.call('ZADD', idle, lease(leaseUntil), claimId .. ' ' .. cid)
  redis.call('HSET', kept, '\\0' .. claimId, leaseUntil .. ' ' .. (redis.call('HGET', to, 'gen') or ''))
  return { 'c', claimId, redis.call('HGETALL', to) }
end
`;

/**
 * KEYS: idle, open, kept. ARGV: epochs, conversation id, end user, now, new
 * generation, then (id, JSON) per interaction. Creates the open conversation when none
 * is and an interaction is new; an interaction whose id was appended before (the open
 * conversation has it, or one sent within the kept hash's TTL had) is not added again.
 * Answers `{how many were added, the generation they joined}`; or `{-1, generation}`, having added
 * nothing, when the conversation was open (the index names it, or its kept hash says it
 * is unsent) but its hash is gone (evicted): starting it anew would replace its turns
 * without a word. Its entry and mark are removed (its generation noted told), so that
 * this caller alone tells it, and the next append starts it anew.
 */
const APPEND = `${EPOCH}${DONE}
local function main()
  local e, lost = epoch()
  if not e then return { 'lost', lost } end
  local open, kept, cid = KEYS[2], KEYS[3], ARGV[3]
  if redis.call('EXISTS', open) == 0 then
    local indexed = redis.call('ZREM', KEYS[1], cid)
    local gen = unmark(kept)
    if gen or indexed == 1 then
      done(kept, gen, ARGV[6])
      return { 'ok', e, { -1, gen or '' } }
    end
  end
  local added = 0
  for i = 7, #ARGV - 1, 2 do
    if redis.call('HSETNX', kept, ARGV[i], '') == 1 then
      if added == 0 and redis.call('HSETNX', open, 'gen', ARGV[6]) == 1 then
        redis.call('HSET', open, 'cid', cid, 'user', ARGV[4])
      end
      local seq = redis.call('HINCRBY', open, 'seq', 1)
      redis.call('HSET', open, '#' .. seq, ARGV[i + 1], 'n:' .. ARGV[i], seq)
      added = added + 1
    end
  end
  -- Marked unsent whenever a turn is added: also when the kept hash was evicted and made anew.
  local gen = added > 0 and redis.call('HGET', open, 'gen') or ''
  if added > 0 then redis.call('HSET', kept, '', gen) end
  if added > 0 or redis.call('EXISTS', open) == 1 then
    redis.call('HSET', open, 'last', ARGV[5])
    redis.call('ZADD', KEYS[1], ARGV[5], cid)
  end
  return { 'ok', e, { added, gen } }
end
`;

/**
 * KEYS: idle, open. ARGV: epochs, conversation id, interaction id, field letter (`f`
 * feedback, `t` tags), attachment JSON, now. 1 when attached.
 */
const ATTACH = `${EPOCH}
local function main()
  local e, lost = epoch()
  if not e then return { 'lost', lost } end
  local open, id = KEYS[2], ARGV[4]
  if redis.call('HEXISTS', open, 'n:' .. id) == 0 then return { 'ok', e, 0 } end
  local field = ARGV[5] .. ':' .. id
  local before = redis.call('HGET', open, field)
  redis.call('HSET', open, field, before and (before .. ',' .. ARGV[6]) or ARGV[6], 'last', ARGV[7])
  redis.call('ZADD', KEYS[1], ARGV[7], ARGV[3])
  return { 'ok', e, 1 }
end
`;

/**
 * KEYS: idle, open, claim, kept. ARGV: epochs, conversation id, now, lease end,
 * claim id, token. The claim; `{'m', conversation id, generation}` when the conversation was open
 * (the idle set names it, or its kept hash says it is unsent) but its hash is gone
 * (evicted: the entry and the mark are removed, so that this caller alone tells it);
 * `{'n'}` when none is open.
 */
const CLAIM = `${EPOCH}${TAKE}
local function main()
  local e, lost = epoch()
  if not e then return { 'lost', lost } end
  local removed = redis.call('ZREM', KEYS[1], ARGV[3])
  local unsent = unmark(KEYS[4])
  if redis.call('EXISTS', KEYS[2]) == 0 then
    if removed == 1 or unsent then
      done(KEYS[4], unsent, ARGV[7])
      return { 'ok', e, { 'm', ARGV[3], unsent or '' } }
    end
    return { 'ok', e, { 'n' } }
  end
  redis.call('RENAME', KEYS[2], KEYS[3])
  return { 'ok', e, take(KEYS[3], ARGV[6], ARGV[7], ARGV[4], ARGV[5], KEYS[1], KEYS[4], ARGV[3]) }
end
`;

/**
 * KEYS: idle. ARGV: now, idle bound, limit. What a sweep may claim in this bucket, read
 * only: `{expired leases, idle conversations, epoch}`, each member then score, lowest
 * scores first, at most `limit` of each (the epoch, scored lowest, apart; `''` when the
 * bucket has none: never used, or lost).
 */
const CANDIDATES = `${LEASES}
local function main()
  local limit = tonumber(ARGV[3])
  -- Open conversations only: the leases are scored from LEASES up.
  local bound = ARGV[2]
  if bound == '+inf' or (bound ~= '-inf' and tonumber(bound) >= LEASES) then bound = '(' .. lease(0) end
  local found = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', bound, 'WITHSCORES', 'LIMIT', 0, limit + 1)
  -- The epoch, scored below every activity time, but above a conversation given back (-inf).
  local idle = {}
  for i = 1, #found - 1, 2 do
    if found[i] ~= '' and #idle < 2 * limit then
      idle[#idle + 1] = found[i]
      idle[#idle + 1] = found[i + 1]
    end
  end
  local leases = redis.call('ZRANGEBYSCORE', KEYS[1], lease(0), lease(ARGV[1]), 'WITHSCORES', 'LIMIT', 0, limit)
  return { leases, idle, redis.call('ZSCORE', KEYS[1], '') or '' }
end
`;

/**
 * KEYS: idle, then (from, to, kept) per candidate: an idle conversation's open hash, its
 * new claim hash and its kept hash, or an expired lease's claim hash twice and its
 * conversation's kept hash. ARGV: epochs, now, lease end, then (kind `i` or `l`, member,
 * score as read, claim id, token) per candidate. Claims each candidate whose score is
 * still the one read (no other sweeper took it, no turn made it active again meanwhile):
 * a claim, or `{'m', conversation id, generation}` when its data is gone (evicted: its entry, and its
 * unsent or claim mark, are removed in the same step, so that no later sweep or loss
 * report tells it again).
 */
const CLAIM_CANDIDATES = `${EPOCH}${TAKE}
local function main()
  local e, lost = epoch()
  if not e then return { 'lost', lost } end
  local idle, now, leaseUntil = KEYS[1], ARGV[3], ARGV[4]
  local out = {}
  for i = 0, (#ARGV - 4) / 5 - 1 do
    local a, k = 5 + i * 5, 2 + i * 3
    local kind, member, score, claimId, token = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4]
    local from, to, kept = KEYS[k], KEYS[k + 1], KEYS[k + 2]
    if kind == 'l' then
      -- A lease is \`<claim id> <conversation id>\`.
      local cid = string.sub(member, #claimId + 2)
      if redis.call('ZSCORE', idle, member) == score then
        redis.call('ZREM', idle, member)
        if redis.call('EXISTS', to) == 1 then
          out[#out + 1] = take(to, claimId, token, now, leaseUntil, idle, kept, cid)
        else
          local gen = unclaim(kept, claimId)
          done(kept, gen, token)
          out[#out + 1] = { 'm', cid, gen or '' }
        end
      end
    elseif redis.call('ZSCORE', idle, member) == score then
      redis.call('ZREM', idle, member)
      local unsent = unmark(kept)
      if redis.call('EXISTS', from) == 1 then
        redis.call('RENAME', from, to)
        out[#out + 1] = take(to, claimId, token, now, leaseUntil, idle, kept, member)
      else
        done(kept, unsent, token)
        out[#out + 1] = { 'm', member, unsent or '' }
      end
    end
  end
  return { 'ok', e, out }
end
`;

/**
 * KEYS: idle, then (open, kept) per conversation. ARGV: a new epoch, then (conversation
 * id, the generations this instance stored into, joined by spaces) per conversation. Run by an instance
 * that met a loss of this bucket (its epoch changed), for the conversations it had stored
 * there: which of them Redis lost, decided and marked in one step, so that a loss is told
 * once whoever asks, and nothing told lost is sent. The leases of the claims the kept
 * hashes mark are put back (the lost index held them), so that a sweep sends each, or
 * tells it lost, if its holder dies; an open hash the index no longer names is named
 * again, so that a sweep sends it. Answers `{epoch, verdicts}` (the bucket gets a new
 * epoch if it has none), per conversation a letter per generation, and `l` after them
 * when the conversation lost a generation this instance did not name:
 *
 * - `w`: whole, its open hash is there, of that generation;
 * - `l`: lost, unsent and its hash gone: its unsent mark is removed, so that this caller
 *   alone tells it;
 * - `c`: claimed and not sent yet (its lease is back);
 * - `s`: sent or told lost already;
 * - `u`: unknown (sent or lost): its kept hash is gone (flushed, restarted, evicted), or
 *   was made anew by another generation.
 */
const LOST = `${LEASES}${DONE}
-- Puts back the lease of each claim of \`cid\` its kept hash marks: the generations claimed.
local function leases(idle, kept, cid)
  local cursor, claimed = '0', {}
  repeat
    local page = redis.call('HSCAN', kept, cursor, 'MATCH', '\\0*', 'COUNT', 100)
    cursor = page[1]
    for j = 1, #page[2] - 1, 2 do
      local leaseUntil, gen = string.match(page[2][j + 1], '^(%S+) ?(.*)$')
      redis.call('ZADD', idle, 'NX', lease(leaseUntil), string.sub(page[2][j], 2) .. ' ' .. cid)
      claimed[gen] = true
    end
  until cursor == '0'
  return claimed
end

local function main()
  local idle = KEYS[1]
  local e = redis.call('ZSCORE', idle, '')
  if not e then
    redis.call('ZADD', idle, ARGV[1], '')
    e = redis.call('ZSCORE', idle, '')
  end
  local out = {}
  for i = 1, (#ARGV - 1) / 2 do
    local open, kept, cid = KEYS[2 * i], KEYS[2 * i + 1], ARGV[2 * i]
    local claimed = leases(idle, kept, cid)
    local now = redis.call('HGET', open, 'gen')
    if now and not redis.call('ZSCORE', idle, cid) then
      redis.call('ZADD', idle, redis.call('HGET', open, 'last') or '0', cid)
    end
    local unsent = not now and unmark(kept)
    local told = false
    local verdict = ''
    for gen in string.gmatch(ARGV[2 * i + 1], '%S+') do
      if gen == now then
        verdict = verdict .. 'w'
      elseif gen == unsent then
        verdict, told = verdict .. 'l', true
      elseif claimed[gen] then
        verdict = verdict .. 'c'
      elseif redis.call('HEXISTS', kept, '\\1' .. gen) == 1 then
        verdict = verdict .. 's'
      else
        verdict = verdict .. 'u'
      end
    end
    -- Another generation lost, unsent: told here, so that no other caller tells it again.
    if unsent and not told then verdict = verdict .. 'l' end
    done(kept, unsent)
    out[#out + 1] = verdict
  end
  return { e, out }
end
`;

/**
 * Writes the (interaction id, JSON) pairs of ARGV from index `from` into the kept hash
 * when `ttl` (ms) is positive, and makes the hash live at least `ttl` and `window` ms.
 */
const KEEP_SENT = `
local function keepSent(kept, ttl, window, from)
  if ttl > 0 then
    for i = from, #ARGV - 1, 2 do redis.call('HSET', kept, ARGV[i], ARGV[i + 1]) end
  end
  local keep = math.max(ttl, window)
  local now = redis.call('PTTL', kept)
  if now == -1 or (now >= 0 and now < keep) then redis.call('PEXPIRE', kept, keep) end
end
`;

/**
 * KEYS: claim, idle, kept. ARGV: claim id, token, retain until, replay window ms,
 * conversation id, then (interaction id, JSON) per sent interaction. Only the lease holder
 * completes: removes the claim, its lease and its claim mark (first: memory freed before
 * any write; if Redis evicted the claim's hash, its lease and mark alone, so that no sweep
 * tells lost what was sent), then keeps what `sent()` answers until `retainUntil` (the
 * recorder's clock, not Redis's: a relative TTL from the claim, and `sent()` checks the
 * exact end), and the kept hash at least the replay window.
 */
const COMPLETE = `${KEEP_SENT}${DONE}
local function main()
  local claim, leaseOf = KEYS[1], ARGV[1] .. ' ' .. ARGV[5]
  local m = redis.call('HMGET', claim, 'token', 'claimedAt', 'gen')
  -- Its hash evicted while held: the holder sent what it claimed; its lease must not be told lost.
  if not m[1] then
    redis.call('ZREM', KEYS[2], leaseOf)
    done(KEYS[3], unclaim(KEYS[3], ARGV[1]))
    return 0
  end
  if m[1] ~= ARGV[2] then return 0 end
  redis.call('ZREM', KEYS[2], leaseOf)
  redis.call('DEL', claim)
  unclaim(KEYS[3], ARGV[1])
  done(KEYS[3], m[3])
  keepSent(KEYS[3], math.floor(tonumber(ARGV[3]) - tonumber(m[2])), tonumber(ARGV[4]), 6)
  return 1
end
`;

/**
 * KEYS: kept. ARGV: now, retain until, replay window ms, then (interaction id, JSON) per
 * interaction sent without a claim (`delivery: 'interaction'`). Keeps what `sent()`
 * answers until `retainUntil`, and the kept hash at least the replay window, as COMPLETE.
 */
const KEEP = `${KEEP_SENT}
local function main()
  keepSent(KEYS[1], math.floor(tonumber(ARGV[2]) - tonumber(ARGV[1])), tonumber(ARGV[3]), 4)
  return 1
end
`;

/**
 * KEYS: claim, idle, open, kept. ARGV: claim id, token, conversation id, `1` if the lease
 * cannot have run out (a sweep gives back what it just claimed). If the token still holds
 * the lease: the conversation is open again, idle since ever (so that the next sweep
 * claims it), marked unsent, in the bucket's index, so that a loss of the index tells it
 * as any open one; or, when a turn opened the conversation anew meanwhile, the lease ends
 * now (an expired lease, which the next sweep claims). 1 then; 0 when another holds the
 * lease; -1 when Redis evicted the claim's hash: its lease and mark are removed, and the
 * caller, which held what is now lost, tells it.
 */
const RELEASE = `${LEASES}${DONE}
local function main()
  local claim, idle, open, kept = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
  local leaseOf = ARGV[1] .. ' ' .. ARGV[3]
  local gen = redis.call('HMGET', claim, 'token', 'gen')
  if not gen[1] then
    -- Told by this caller if its lease or mark was there to remove, or its lease could not
    -- have run out (ARGV[4] = '1': no sweep took it); else by the sweep that took its lease.
    local leased = redis.call('ZREM', idle, leaseOf)
    local marked = unclaim(kept, ARGV[1])
    if marked or leased == 1 or ARGV[4] == '1' then
      done(kept, marked, ARGV[2])
      return -1
    end
    return 0
  end
  if gen[1] ~= ARGV[2] then return 0 end
  redis.call('ZREM', idle, leaseOf)
  if redis.call('EXISTS', open) == 1 then
    redis.call('ZADD', idle, lease(0), leaseOf)
    redis.call('HSET', kept, '\\0' .. ARGV[1], '0 ' .. (gen[2] or ''))
    return 1
  end
  redis.call('HDEL', claim, 'token', 'claimedAt')
  unclaim(kept, ARGV[1])
  redis.call('RENAME', claim, open)
  redis.call('ZADD', idle, '-inf', ARGV[3])
  redis.call('HSET', kept, '', gen[2])
  return 1
end
`;

/**
 * KEYS: a kept hash per call in doubt. ARGV: that call's teller (see `done`). Per call,
 * `1, generation` when it told its conversation lost (the note is removed: told once),
 * else `0, ''`. Only removes: runs when Redis is full under `noeviction` too.
 */
const TOLD = `
local function main()
  local out = {}
  for i = 1, #KEYS do
    local field = '\\2' .. ARGV[i]
    local gen = redis.call('HGET', KEYS[i], field)
    if gen then redis.call('HDEL', KEYS[i], field) end
    out[#out + 1] = gen and 1 or 0
    out[#out + 1] = gen or ''
  end
  return out
end
`;

/** KEYS: kept. ARGV: interaction id. What was kept of it: `''` while unsent, nil when nothing is. */
const SENT = `
local function main()
  return redis.call('HGET', KEYS[1], ARGV[1])
end
`;

/**
 * For a client that parses replies as JSON (`@upstash/redis` by default): every string
 * of the reply starts with `'`, which no JSON does, so that each arrives as sent.
 */
const SHIELD = `
local function shield(value)
  if type(value) == 'string' then return "'" .. value end
  if type(value) == 'table' and value.ok == nil and value.err == nil then
    local out = {}
    for i = 1, #value do out[i] = shield(value[i]) end
    return out
  end
  return value
end
return shield(main())
`;

const BODIES = {
  append: APPEND,
  attach: ATTACH,
  claim: CLAIM,
  candidates: CANDIDATES,
  claimCandidates: CLAIM_CANDIDATES,
  lost: LOST,
  complete: COMPLETE,
  keep: KEEP,
  release: RELEASE,
  sent: SENT,
  told: TOLD,
} as const;

/**
 * The store's operations that run a script.
 *
 * @example
 * ```ts
 * const name: ScriptName = 'append';
 * ```
 */
export type ScriptName = keyof typeof BODIES;

/**
 * The scripts by name, as a client that leaves replies alone runs them.
 *
 * @example
 * ```ts
 * await client.eval(SCRIPTS.sent, { keys: [bucket.kept('chat-42')], arguments: [interactionId] });
 * ```
 */
export const SCRIPTS: Readonly<Record<ScriptName, string>> = Object.fromEntries(
  Object.entries(BODIES).map(([name, body]) => [name, `${body}return main()\n`]),
) as Record<ScriptName, string>;

/**
 * The scripts by name for a client that parses replies as JSON: each reply's strings
 * start with `'` (see `unshield` in commands.ts).
 *
 * @example
 * ```ts
 * const script = shielded ? SHIELDED_SCRIPTS.claim : SCRIPTS.claim;
 * ```
 */
export const SHIELDED_SCRIPTS: Readonly<Record<ScriptName, string>> = Object.fromEntries(
  Object.entries(BODIES).map(([name, body]) => [name, `${body}${SHIELD}`]),
) as Record<ScriptName, string>;

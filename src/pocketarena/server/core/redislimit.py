"""The rate limits of a cluster, kept in Redis: the same ``Limiter`` as ``MemoryLimiter``, so a
client spreading requests over several processes meets the same buckets and counters.

Each operation is one Lua script, so it is atomic whatever the processes do at the same time;
the time is Redis's own (the processes' clocks may differ). Counters of open things (sockets)
are kept per process, and a process that stops saying it is alive (killed) no longer counts.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from redis.exceptions import RedisError

from .ratelimit import Rate

log = logging.getLogger(__name__)

# A token bucket: KEYS[1] the bucket (hash: tokens, stamp); ARGV: rate per s, burst, take (1/0).
# Returns the seconds to wait as a string (0 when a token was there).
_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local take = tonumber(ARGV[3])
local data = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(data[1])
local stamp = tonumber(data[2])
if tokens == nil then
  tokens = burst
  stamp = now
end
tokens = math.min(burst, tokens + (now - stamp) * rate)
local wait = 0
if tokens >= 1 then
  if take == 1 then tokens = tokens - 1 end
else
  wait = (1 - tokens) / rate
end
if take == 1 or data[1] then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
  redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
end
return tostring(wait)
"""

# Count one more open thing: KEYS[1] the counter (hash: node -> count); ARGV: node, cap,
# the prefix of the processes' liveness keys. Nodes no longer alive are dropped first.
_ACQUIRE = """
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #counts, 2 do
  local node = counts[i]
  if node == ARGV[1] or redis.call('EXISTS', ARGV[3] .. node) == 1 then
    total = total + tonumber(counts[i + 1])
  else
    redis.call('HDEL', KEYS[1], node)
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], 86400)
return 1
"""

_RELEASE = """
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
"""


class RedisLimiter:
    """``Limiter`` over Redis (redis-py asyncio, shared with the bus)."""

    def __init__(self, redis: Any, prefix: str, node: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self._bucket = redis.register_script(_BUCKET)
        self._acquire = redis.register_script(_ACQUIRE)
        self._release = redis.register_script(_RELEASE)
        self._warned = -1e9

    async def _run(self, rate: Rate, key: str, take: bool) -> float:
        name = f"{self.prefix}:rl:{rate.name}:{key}"
        try:
            wait = await self._bucket(keys=[name], args=[rate.per_s, rate.burst, 1 if take else 0])
        except (RedisError, OSError) as e:
            self._unreachable(e)
            return 0.0
        return float(wait)

    def _unreachable(self, e: Exception) -> None:
        # Redis away for a moment: requests pass unlimited rather than fail (the limits are
        # a guard against floods, not what keeps games right); said once a minute at most.
        now = time.monotonic()
        if now - self._warned > 60:
            self._warned = now
            log.warning("rate limits are not enforced: Redis cannot be reached (%s)", e)

    async def take(self, rate: Rate, key: str) -> float:
        return await self._run(rate, key, True)

    async def peek(self, rate: Rate, key: str) -> float:
        return await self._run(rate, key, False)

    async def acquire(self, name: str, key: str, cap: int) -> bool:
        counter = f"{self.prefix}:open:{name}:{key}"
        try:
            got = await self._acquire(keys=[counter], args=[self.node, cap, f"{self.prefix}:node:"])
        except (RedisError, OSError) as e:
            self._unreachable(e)
            return True
        return bool(int(got))

    async def release(self, name: str, key: str) -> None:
        try:
            await self._release(keys=[f"{self.prefix}:open:{name}:{key}"], args=[self.node])
        except (RedisError, OSError) as e:
            self._unreachable(e)

import type { Storage } from 'unstorage'
import { redisOf } from '../storage/storage.ts'
import { localFleet, type Fleet } from './fleet.ts'
import { redisFleet } from './redis-fleet.ts'

/** The fleet the storage implies: Redis-backed when the storage is, else a fleet of one. */
export function createFleet(storage: Storage, instanceId: string): Fleet {
  const redis = redisOf(storage)
  return redis ? redisFleet(redis.client, redis.base, instanceId) : localFleet(instanceId)
}

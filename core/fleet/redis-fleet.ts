import type { Cluster, Redis } from 'ioredis'
import type { Fleet, FleetHealth } from './fleet.ts'
import { redisClientOptions } from '../storage/storage-redis.ts'
import { stallMs, watchStalls } from './stall-watch.ts'

/** Thrown at once, without waiting on a socket, while the shared store is down. */
export class FleetOfflineError extends Error {
  constructor(reason: string) {
    super(`shared store unavailable: ${reason}`)
    this.name = 'FleetOfflineError'
  }
}

/** A reason fit for `/readyz` (public): the error code, never the address (a timeout has no code: said in words). */
const reasonOf = (error: Error & { code?: string }) => `Redis unreachable (${error.code ?? (/timed out/i.test(error.message) ? `no reply within ${redisClientOptions.commandTimeout} ms` : error.message.replace(/\s.*$/, ''))})`

/**
 * The fleet over the storage's own Redis connection: health follows the connection's events and a
 * heartbeat (a server that hangs sends no event), messages go over a second (subscriber) connection,
 * and every `onUp` listener runs again after each reconnect or stall.
 */
export function redisFleet(client: Redis | Cluster, base: string, instanceId: string): Fleet {
  let up = client.status === 'ready'
  let reason: string | undefined = up ? undefined : 'connecting to Redis'
  let since = Date.now()
  let outages = 0
  let failedBeforeFirstConnect = false
  // The first connection attempt's outcome: start-up waits for it before reading shared state.
  let settle!: () => void
  const firstAttempt = new Promise<void>(resolve => { settle = resolve })
  if (up) settle()
  const upListeners = new Set<() => void>()
  const channels = new Map<string, Set<(message: string) => void>>()
  let subscriber: Redis | Cluster | undefined

  const runUpListeners = () => {
    for (const listener of upListeners) {
      try { listener() } catch {}
    }
  }
  const onReady = () => {
    settle()
    if (up) return
    up = true
    reason = undefined
    since = Date.now()
    runUpListeners()
  }
  const onError = (error: Error) => {
    settle()
    if (up) return
    reason = reasonOf(error)
    // Not reachable at start counts as an outage too (once, until it first connects).
    if (!failedBeforeFirstConnect && outages === 0) {
      failedBeforeFirstConnect = true
      outages++
      since = Date.now()
    }
  }
  const onClose = () => {
    if (!up) return
    up = false
    reason = 'connection to Redis lost'
    since = Date.now()
    outages++
  }
  client.on('ready', onReady)
  client.on('error', onError)
  client.on('close', onClose)
  // A hung server closes nothing: it is away while it leaves a PING unanswered, back at its next answer.
  const stalls = watchStalls(client, {
    stalled() {
      if (!up) return
      onClose()
      reason = `Redis unreachable (no reply within ${stallMs} ms)`
    },
    answered() { if (!up && client.status === 'ready') onReady() },
  })

  const ensureSubscriber = () => {
    if (subscriber) return
    // A Cluster's duplicate takes its seed nodes first; its subscriber follows the slot map by itself.
    subscriber = client.isCluster ? (client as Cluster).duplicate() : (client as Redis).duplicate({ autoResubscribe: false })
    subscriber.on('error', () => {})
    // (Re)subscribe on every connection: a SUBSCRIBE sent while Redis was down failed, and messages
    // missed meanwhile are caught up by the listeners' reconcile.
    subscriber.on('ready', () => {
      if (channels.size) subscriber!.subscribe(...channels.keys()).catch(() => {})
      if (up) runUpListeners()
    })
    subscriber.on('message', (channel: string, message: string) => {
      for (const listener of channels.get(channel) ?? []) {
        try { listener(message) } catch {}
      }
    })
  }

  const prefix = base ? `${base.replace(/:$/, '')}:` : ''
  return {
    instanceId,
    shared: true,
    health: (): FleetHealth => ({ shared: true, up, reason, since, outages }),
    settled: timeoutMs => Promise.race([firstAttempt, new Promise<void>(resolve => setTimeout(resolve, timeoutMs).unref())]),
    onUp(listener) {
      upListeners.add(listener)
      return () => upListeners.delete(listener)
    },
    key: name => prefix + name,
    async publish(channel, message) {
      if (!up) throw new FleetOfflineError(reason ?? 'down')
      await client.publish(prefix + channel, message)
    },
    subscribe(channel, listener) {
      ensureSubscriber()
      const name = prefix + channel
      let set = channels.get(name)
      if (!set) {
        channels.set(name, set = new Set())
        if (subscriber!.status === 'ready') subscriber!.subscribe(name).catch(() => {})
      }
      set.add(listener)
      return () => set.delete(listener)
    },
    async eval(script, keys, args) {
      if (!up) throw new FleetOfflineError(reason ?? 'down')
      return client.eval(script, keys.length, ...keys, ...args)
    },
    async close() {
      stalls.stop()
      client.off('ready', onReady)
      client.off('error', onError)
      client.off('close', onClose)
      upListeners.clear()
      channels.clear()
      subscriber?.disconnect()
    },
  }
}

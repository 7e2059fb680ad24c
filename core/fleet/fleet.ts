/** Whether shared state can be reached now, as `/readyz`, `/metrics` and the log report it. */
export interface FleetHealth {
  /** State is shared with other instances (the redis driver); false: this instance is on its own. */
  shared: boolean
  up: boolean
  /** Why not up (the driver's last error), when not. */
  reason?: string
  /** Epoch ms of the last change between up and down. */
  since: number
  /** Times the shared store was lost (or not reachable at start) since this process started. */
  outages: number
}

/**
 * What instances of one proxy share besides storage: who this instance is, whether Redis answers, a
 * message bus and atomic scripts. Without Redis (memory or fs storage) it is a fleet of one: always up,
 * messages stay in the process, and `shared` is false.
 */
export interface Fleet {
  readonly instanceId: string
  readonly shared: boolean
  health(): FleetHealth
  /** Resolves once the first connection to the shared store succeeded or failed (at most `timeoutMs`). */
  settled(timeoutMs: number): Promise<void>
  /** Runs on every (re)connection to the shared store: reconcile what changed while it was away. */
  onUp(listener: () => void): () => void
  /** Redis key for a fleet-level name (under the storage's `base`). */
  key(name: string): string
  publish(channel: string, message: string): Promise<void>
  subscribe(channel: string, listener: (message: string) => void): () => void
  /** Run a Lua script atomically; rejects (quickly) when the shared store is down or absent. */
  eval(script: string, keys: string[], args: Array<string | number>): Promise<unknown>
  close(): Promise<void>
}

/** A fleet of one: no Redis. */
export function localFleet(instanceId: string): Fleet {
  const channels = new Map<string, Set<(message: string) => void>>()
  const started = Date.now()
  return {
    instanceId,
    shared: false,
    health: () => ({ shared: false, up: true, since: started, outages: 0 }),
    settled: async () => {},
    onUp: () => () => {},
    key: name => name,
    async publish(channel, message) {
      for (const listener of channels.get(channel) ?? []) listener(message)
    },
    subscribe(channel, listener) {
      let set = channels.get(channel)
      if (!set) channels.set(channel, set = new Set())
      set.add(listener)
      return () => set.delete(listener)
    },
    eval: async () => { throw new Error('no shared store: the storage driver is not redis') },
    async close() { channels.clear() },
  }
}

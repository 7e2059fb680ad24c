import { Counter, Gauge, Registry } from 'prom-client'
import { CounterTally, HistogramTally } from './tally.ts'
import type { ProxyKernel, CredentialState } from 'model-proxy'
import { jsonCacheStats } from 'model-proxy/kit/body'

const states: CredentialState[] = ['ready', 'cooldown', 'blocked', 'disabled']
/** The JSON layer's one cache (core/json/turn-cache.ts), by side: parse and write. */
const partCaches = () => Object.entries(jsonCacheStats().bySide)
/** Seconds: from a quick non-stream answer to a long agentic stream. */
const latencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

export type ProxyMetrics = ReturnType<typeof createProxyMetrics>

/**
 * Every metric of one proxy in its own Registry (never prom-client's global one: several proxies may
 * share a process). Credential states are read at scrape time, nothing polls.
 */
export function createProxyMetrics(kernel: ProxyKernel) {
  const registry = new Registry()
  let counted = 0
  const countedLookups = new Map<string, number>()
  const registers = [registry]
  const register = <T extends CounterTally | HistogramTally>(metric: T): T => {
    registry.registerMetric(metric as never)
    return metric
  }
  return {
    registry,
    requests: register(new CounterTally('proxy_requests_total', 'Proxied model requests by client endpoint, model asked for, provider that answered and status.', ['endpoint', 'model', 'provider', 'status'])),
    firstByte: register(new HistogramTally('proxy_upstream_first_byte_seconds', 'Upstream time to response headers, per attempt.', ['provider'], latencyBuckets)),
    upstreamDuration: register(new HistogramTally('proxy_upstream_duration_seconds', 'Upstream time until the body ended (streams: the whole stream), per attempt that got an answer.', ['provider'], latencyBuckets)),
    tokens: register(new CounterTally('proxy_tokens_total', 'Tokens reported by upstreams, by model asked for and type (input, output, reasoning, cached, cache_write; estimated: counts the proxy estimated).', ['model', 'provider', 'type'])),
    retries: register(new CounterTally('proxy_upstream_retries_total', 'Failed upstream attempts that were retried, by provider and upstream status (0 = no connection).', ['provider', 'status'])),
    failovers: register(new CounterTally('proxy_failovers_total', 'Retries that moved to another credential, by provider left and provider tried.', ['from_provider', 'to_provider'])),
    storageUp: new Gauge({
      name: 'proxy_shared_store_up',
      help: 'Whether the shared store (Redis) answers: 1 up, 0 away (the instance serves on local state). Always 1 without Redis.',
      registers,
      collect() { this.set(kernel.fleet.health().up ? 1 : 0) },
    }),
    storageOutages: new Counter({
      name: 'proxy_shared_store_outages_total',
      help: 'Times the shared store (Redis) was lost, or not reachable at start, since this process started.',
      registers,
      collect() {
        const seen = kernel.fleet.health().outages - counted
        if (seen > 0) this.inc(seen)
        counted += seen
      },
    }),
    partCacheLookups: new Counter({
      name: 'proxy_part_cache_lookups_total',
      help: 'Lookups in the JSON layer\'s last-turn cache, by side (parse: parts of client bodies; write: parts of translated upstream bodies), found or not.',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        for (const [cache, parts] of partCaches()) {
          for (const result of ['hit', 'miss'] as const) {
            const key = `${cache} ${result}`
            const now = result === 'hit' ? parts.hits : parts.misses
            const seen = now - (countedLookups.get(key) ?? 0)
            if (seen > 0) this.inc({ cache, result }, seen)
            countedLookups.set(key, now)
          }
        }
      },
    }),
    partCacheBytes: new Gauge({
      name: 'proxy_part_cache_bytes',
      help: 'Bytes of JSON held by each side of the last-turn cache (parse, write; their objects cost about as much again).',
      labelNames: ['cache'],
      registers,
      collect() { for (const [cache, parts] of partCaches()) this.set({ cache }, parts.bytes) },
    }),
    credentials: new Gauge({
      name: 'proxy_credentials',
      help: 'Credentials by provider and state (ready, cooldown, blocked, disabled), read at scrape time.',
      labelNames: ['provider', 'state'] as const,
      registers,
      collect() {
        this.reset()
        const routing = kernel.services.routingState
        const counts = new Map<string, Record<CredentialState, number>>()
        for (const credential of kernel.credentials) {
          let row = counts.get(credential.provider)
          if (!row) counts.set(credential.provider, row = { ready: 0, cooldown: 0, blocked: 0, disabled: 0 })
          row[routing?.stateOf(credential.id) ?? 'ready']++
        }
        for (const [provider, row] of counts) for (const state of states) this.set({ provider, state }, row[state])
      },
    }),
  }
}

import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { ProxyKernel } from '../../core/kernel.ts'
import type { CredentialState } from '../../core/credential.ts'
import type { RoutingState } from '../routing/state.ts'

const states: CredentialState[] = ['ready', 'cooldown', 'blocked', 'disabled']
/** Seconds: from a quick non-stream answer to a long agentic stream. */
const latencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

export type ProxyMetrics = ReturnType<typeof createProxyMetrics>

/**
 * Every metric of one proxy in its own Registry (never prom-client's global one: several proxies may
 * share a process). Credential states are read at scrape time, nothing polls.
 */
export function createProxyMetrics(kernel: ProxyKernel) {
  const registry = new Registry()
  const registers = [registry]
  return {
    registry,
    requests: new Counter({ name: 'proxy_requests_total', help: 'Proxied model requests by client endpoint, model asked for, provider that answered and status.', labelNames: ['endpoint', 'model', 'provider', 'status'] as const, registers }),
    firstByte: new Histogram({ name: 'proxy_upstream_first_byte_seconds', help: 'Upstream time to response headers, per attempt.', labelNames: ['provider'] as const, buckets: latencyBuckets, registers }),
    upstreamDuration: new Histogram({ name: 'proxy_upstream_duration_seconds', help: 'Upstream time until the body ended (streams: the whole stream), per attempt that got an answer.', labelNames: ['provider'] as const, buckets: latencyBuckets, registers }),
    tokens: new Counter({ name: 'proxy_tokens_total', help: 'Tokens reported by upstreams, by model asked for and type (input, output, reasoning, cached).', labelNames: ['model', 'provider', 'type'] as const, registers }),
    retries: new Counter({ name: 'proxy_upstream_retries_total', help: 'Failed upstream attempts that were retried, by provider and upstream status (0 = no connection).', labelNames: ['provider', 'status'] as const, registers }),
    failovers: new Counter({ name: 'proxy_failovers_total', help: 'Retries that moved to another credential, by provider left and provider tried.', labelNames: ['from_provider', 'to_provider'] as const, registers }),
    credentials: new Gauge({
      name: 'proxy_credentials',
      help: 'Credentials by provider and state (ready, cooldown, blocked, disabled), read at scrape time.',
      labelNames: ['provider', 'state'] as const,
      registers,
      collect() {
        this.reset()
        const routing = (kernel.services as { routingState?: RoutingState }).routingState
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

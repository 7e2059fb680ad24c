import { Gauge, type Registry } from 'prom-client'
import { CounterTally } from '../metrics/api.ts'

/** Per key name (never the key): requests, tokens, cost and refusals. Names are bounded by the config. */
export function createKeyMetrics(registry: Registry | undefined, countedLocally: () => boolean) {
  const tally = (name: string, help: string, labels: string[]) => {
    const metric = new CounterTally(name, help, labels)
    registry?.registerMetric(metric as never)
    return metric
  }
  return {
    requests: tally('proxy_client_key_requests_total', 'Requests by client key name and status.', ['key', 'status']),
    tokens: tally('proxy_client_key_tokens_total', 'Tokens by client key name and type (input, output).', ['key', 'type']),
    cost: tally('proxy_client_key_cost_usd_total', 'What the answers cost in USD (model-prices), by client key name.', ['key']),
    local: registry && new Gauge({
      name: 'proxy_client_key_limits_local',
      help: 'Whether client-key limits are counted per instance (1) because the shared store (Redis) is away; 0 while the fleet shares them.',
      registers: [registry],
      collect() { this.set(countedLocally() ? 1 : 0) },
    }),
    rejections: tally('proxy_client_key_rejections_total', 'Requests refused by a client key\'s rules, by name and reason (rpm, tpm, budget, model, unpriced, unavailable, expired, disabled).', ['key', 'reason']),
    unpriced: tally('proxy_client_key_unpriced_requests_total', 'Requests of client keys with a budget to a model without a price, by model and decision (refused, allowed: client-key-policy.unpriced-models).', ['model', 'decision']),
  }
}

export type KeyMetrics = ReturnType<typeof createKeyMetrics>

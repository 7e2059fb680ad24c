/** A model without a price that keys with a budget were sent to, as the panel and the management API list it. */
export interface UnpricedSeen {
  model: string
  /** Its upstream names without a price. */
  upstreams: string[]
  refused: number
  allowed: number
  /** Epoch ms of the first and the last such request on this instance. */
  first: number
  last: number
}

/**
 * Requests of keys with a budget to models without a price, on this instance: each model is logged once
 * (the operator learns of it without a line per request) and counted by decision (metrics, panel).
 * Models come from the model index, so the list is bounded by the config.
 */
export class UnpricedModels {
  private seen = new Map<string, UnpricedSeen>()

  constructor(private tell: { log(message: string): void; count(model: string, decision: 'refused' | 'allowed'): void }) {}

  note(model: string, upstreams: string[], decision: 'refused' | 'allowed', now = Date.now()): void {
    let seen = this.seen.get(model)
    if (!seen) {
      this.seen.set(model, seen = { model, upstreams, refused: 0, allowed: 0, first: now, last: now })
      this.tell.log(decision === 'refused'
        ? `model ${JSON.stringify(model)} has no price: requests of client keys with a budget are refused (add it to model-prices, or set client-key-policy.unpriced-models: allow)`
        : `model ${JSON.stringify(model)} has no price: requests of client keys with a budget are served at $0 (client-key-policy.unpriced-models: allow); add it to model-prices to count them`)
    }
    seen[decision]++
    seen.last = now
    seen.upstreams = upstreams
    this.tell.count(model, decision)
  }

  list(): UnpricedSeen[] { return [...this.seen.values()].sort((a, b) => a.model.localeCompare(b.model)) }
}

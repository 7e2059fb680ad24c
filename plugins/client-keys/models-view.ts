import type { Candidate, ModelInfo } from 'model-proxy'

/** One upstream behind a model name: the family (and so the wire format) that serves it, by whom, as what. */
export interface ModelUpstream { family: string; provider: string; model: string; credentials: number }

/** A model clients may name, as the panel's Models page shows it. */
export interface ModelView {
  id: string
  /** The upstream names it is sent as, when the client's name is an alias (differs from every one). */
  'alias-of': string[]
  upstreams: ModelUpstream[]
  'context-window'?: number
  'max-output'?: number
  /** Whether one of its credentials can serve now (not cooling down, blocked or disabled). */
  available: boolean
}

/**
 * Every served model with its upstreams grouped by family, provider and upstream name, and the limits
 * the catalog knows for the first upstream name: what the model index holds, in words an operator reads.
 */
export function modelViews(index: Map<string, Candidate[]>, info: (id: string) => ModelInfo | undefined, available?: (candidate: Candidate) => boolean): ModelView[] {
  const views: ModelView[] = []
  for (const [id, candidates] of index) {
    const groups = new Map<string, ModelUpstream>()
    for (const { credential, upstreamModel } of candidates) {
      const key = `${credential.family}\u0000${credential.provider}\u0000${upstreamModel}`
      const group = groups.get(key)
      if (group) group.credentials++
      else groups.set(key, { family: credential.family, provider: credential.provider, model: upstreamModel, credentials: 1 })
    }
    const upstreams = [...groups.values()]
    const names = [...new Set(upstreams.map(upstream => upstream.model))]
    const known = names.map(info).find(Boolean) ?? info(id)
    views.push({
      id,
      'alias-of': names.includes(id) ? [] : names,
      upstreams,
      ...(known && { 'context-window': known.contextWindow, 'max-output': known.maxOutput }),
      available: available ? candidates.some(available) : candidates.length > 0,
    })
  }
  return views.sort((a, b) => a.id.localeCompare(b.id))
}

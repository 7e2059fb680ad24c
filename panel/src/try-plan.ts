import { wireFormats, type WireFormatId } from './wire-formats.ts'

/** At most this many models get a request: a little traffic, not a load test. */
const maxModels = 6
const formatIds = Object.keys(wireFormats) as WireFormatId[]

/**
 * One short request per family (its first available model), each in another client format, every
 * other one streamed, so every family shows on the charts. Pure.
 */
export function tryPlan(models: Array<{ id: string; available: boolean; upstreams: Array<{ family: string }> }>): Array<{ model: string; format: WireFormatId; stream: boolean }> {
  const byFamily = new Map<string, string>()
  for (const model of models) {
    const family = model.upstreams[0]?.family
    if (model.available && family && !byFamily.has(family)) byFamily.set(family, model.id)
  }
  return [...byFamily.values()].slice(0, maxModels).map((model, i) => ({ model, format: formatIds[i % formatIds.length]!, stream: i % 2 === 1 }))
}

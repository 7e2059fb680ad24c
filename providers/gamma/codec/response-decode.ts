import type { CanonicalResponse, Part } from 'model-proxy'
import { isObject, num, str, type Json } from './guards.ts'
import { calledTool } from './namespace-tools.ts'
import { finishFromWire } from './map-finish-reason.ts'
import { thinkingFromItem } from './reasoning-item.ts'
import { usageFromWire } from './usage.ts'
import { citationsFromAnnotations, webSearchFromItem } from './web-search-items.ts'

/** Output items -> canonical parts; built-in tool items other than web_search_call have no canonical part. */
export function partsFromOutput(output: unknown): Part[] {
  if (!Array.isArray(output)) return []
  return output.flatMap((item): Part[] => {
    if (!isObject(item)) return []
    if (item.type === 'reasoning') {
      const thinking = thinkingFromItem(item)
      return thinking ? [thinking] : []
    }
    if (item.type === 'web_search_call') return [webSearchFromItem(item)]
    if (item.type === 'function_call') {
      const id = str(item.call_id) ?? str(item.id) ?? ''
      return [{ type: 'tool_call', id, ...calledTool(item), arguments: str(item.arguments) ?? '' }]
    }
    if (item.type === 'message' && Array.isArray(item.content)) {
      return item.content.flatMap((part): Part[] => {
        if (!isObject(part)) return []
        if (part.type === 'refusal') return typeof part.refusal === 'string' ? [{ type: 'text', text: part.refusal, refusal: true }] : []
        const text = str(part.text)
        const citations = citationsFromAnnotations(part.annotations)
        return text === undefined ? [] : [citations ? { type: 'text', text, citations } : { type: 'text', text }]
      })
    }
    return []
  })
}

/** A response object (any JSON: upstream bodies are not trusted) -> canonical response. Never throws. */
export function decodeResponse(body: unknown): CanonicalResponse {
  let res: Json = isObject(body) ? body : {}
  // A final stream event (`{type:'response.completed', response}`) carries the object one level down.
  if (res.object !== 'response' && isObject(res.response)) res = res.response
  const parts = partsFromOutput(res.output)
  const incomplete = isObject(res.incomplete_details) ? res.incomplete_details.reason : undefined
  const response: CanonicalResponse = {
    id: str(res.id) ?? '',
    model: str(res.model) ?? '',
    parts,
    finishReason: finishFromWire(res.status, incomplete, parts.some(part => part.type === 'tool_call')),
  }
  const created = num(res.created_at)
  const usage = usageFromWire(res.usage)
  if (created !== undefined) response.created = created
  if (usage) response.usage = usage
  return response
}

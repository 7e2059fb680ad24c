import { randomUUID } from 'node:crypto'

/** Item kinds of a response's `output` and the id prefixes the format uses for them. */
export type ItemKind = 'message' | 'function_call' | 'reasoning' | 'web_search_call'
const prefix: Record<ItemKind, string> = { message: 'msg', function_call: 'fc', reasoning: 'rs', web_search_call: 'ws' }

const randomHex = () => randomUUID().replaceAll('-', '')

/** `resp_...` id: an upstream id of this format is kept; another format's id is wrapped so it stays traceable. */
export function responseId(id?: string): string {
  if (id?.startsWith('resp_')) return id
  const safe = id?.replace(/[^A-Za-z0-9_-]/g, '')
  return `resp_${safe || randomHex()}`
}

/**
 * Item ids derive from the response id and the output index, so the same item carries the same id in
 * `output_item.added`, `output_item.done` and the final `response.completed` without any lookup table.
 */
export function itemId(kind: ItemKind, respId: string, outputIndex: number): string {
  return `${prefix[kind]}_${respId.replace(/^resp_/, '')}_${outputIndex}`
}

import { encodedForms, maskValues } from 'model-proxy/kit/access'

/**
 * A record with every string masked, field by field. Masking the record's whole JSON text instead cost
 * more than the request itself with agent-sized bodies: the text holds the client body twice (as received
 * and as sent) and is far past 128 KB, so every pass allocated a fresh copy. Here each distinct string
 * is searched once (the client body sent unchanged is the same string) and only a string that holds a
 * secret is copied.
 */
export function maskRecord<T>(value: T, secrets: ReadonlyArray<string | undefined>): T {
  const known = secrets.filter((secret): secret is string => !!secret && secret.length >= 4)
  if (!known.length) return value
  const seen = new Map<string, string>()
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      let masked = seen.get(node)
      if (masked === undefined) seen.set(node, masked = maskValues(node, known))
      return masked
    }
    if (Array.isArray(node)) return node.map(walk)
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {}
      for (const key in node) out[key] = walk((node as Record<string, unknown>)[key])
      return out
    }
    return node
  }
  return walk(value) as T
}


/** A secret as it reads inside JSON text (JSON escapes character by character, so a string holding it holds this). */
const asInJson = (secret: string) => JSON.stringify(secret).slice(1, -1)

/** Whether a value's JSON text holds any of `secrets`, plain or encoded as maskValues finds them: one search per form instead of a walk over every string. */
export function holdsSecret(jsonText: string, secrets: ReadonlyArray<string | undefined>): boolean {
  return secrets.some(secret => !!secret && secret.length >= 4 && (jsonText.includes(asInJson(secret)) || encodedForms(secret).some(form => jsonText.includes(form))))
}

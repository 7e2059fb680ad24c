import { validHeader } from '../data/http-header.ts'

/** Framing and connection headers are the server's: a listener's `content-length` cut answers short. */
const serverOwned = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer'])

/**
 * The headers an answer goes out with: what `before-response` listeners left in `responseHeaders`, then
 * the kernel's own (`own`, which win). `responseHeaders` is a plugin's to write, so it is read as
 * untrusted: a header no HTTP answer may carry (a bad name, a value with a line break, an object) is
 * dropped and reported, never a 500 with an empty body for an answer the upstream gave; a replaced,
 * frozen or hostile object reads as no headers. Docs/hooks.md: "the answer goes out without that
 * listener's headers".
 */
export function answerHeaders(fromHooks: unknown, own: Record<string, string>, report: (message: string) => void): Record<string, string> {
  const out: Record<string, string> = {}
  let entries: [string, unknown][]
  try {
    entries = fromHooks && typeof fromHooks === 'object' ? Object.entries(fromHooks) : []
  } catch {
    entries = []
    report('responseHeaders could not be read: the answer goes out without the hooks\' headers')
  }
  for (const [name, raw] of entries) {
    const value = typeof raw === 'number' ? String(raw) : raw
    if (typeof value !== 'string' || serverOwned.has(name.toLowerCase()) || !validHeader(name, value)) {
      report(`header ${JSON.stringify(name.slice(0, 64))} set by a before-response listener was dropped: ${typeof value !== 'string' ? 'its value is no string' : 'not a header an answer may carry'}`)
      continue
    }
    out[name] = value
  }
  return Object.assign(out, own)
}

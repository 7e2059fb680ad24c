import { scanTopLevel } from '../json/index.ts'
import { maxJsonDepth } from '../json/index.ts'

/**
 * Whether the client's own bytes may go upstream instead of our serialization of what we parsed. The
 * route was picked by the last top-level `model` key (JSON.parse keeps the last); an upstream parser that
 * keeps the first of two would run another model than the one routed (and excluded) here. So a body whose
 * top level names `model` more than once (escaped spellings such as `"mod\u0065l"` included) is
 * re-serialized. Only the top level counts: agents' tool schemas have `model` properties, and refusing
 * their bytes for that cost a JSON.stringify of the whole 80-150 KB body per request.
 * A format that names the model in the URL (`WireCodec.modelIn`) has no such key (generateContent's
 * `"role":"model"` turns are none).
 */
export function clientBytesUsable(text: string, modelInBody: boolean, bytes: Buffer = Buffer.from(text)): boolean {
  if (!modelInBody) return true
  const first = text.indexOf('"model"')
  // The common cases decided without a scan: no key at all, or a single spelling anywhere and no escapes.
  if (first === -1 && text.indexOf('\\u') === -1) return true
  if (first !== -1 && text.indexOf('"model"', first + 7) === -1 && text.indexOf('\\u') === -1) return true
  // The same top-level scan the lazy body uses (core/json/body-scan.ts); one it cannot follow is not sent as it came.
  return scanTopLevel(bytes, maxJsonDepth)?.repeated.has('model') === false
}

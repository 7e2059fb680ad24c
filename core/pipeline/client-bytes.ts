import type { WireFormat } from '../canonical/codec.ts'

/**
 * Whether the client's own bytes may go upstream instead of our serialization of what we parsed. The
 * route was picked by the last `model` key (JSON.parse keeps the last); an upstream parser that keeps
 * the first of two would run another model than the one routed (and excluded) here. So a body that
 * names `"model"` more than once is re-serialized. An escaped `\"model\"` inside a string never matches;
 * generateContent names the model in the URL (its `"role":"model"` turns are no key).
 */
export function clientBytesUsable(text: string, format: WireFormat): boolean {
  if (format === 'generate') return true
  const first = text.indexOf('"model"')
  return first === -1 || text.indexOf('"model"', first + 7) === -1
}

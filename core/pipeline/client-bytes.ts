/**
 * Whether the client's own bytes may go upstream instead of our serialization of what we parsed. The
 * route was picked by the last `model` key (JSON.parse keeps the last); an upstream parser that keeps
 * the first of two would run another model than the one routed (and excluded) here. So a body that
 * names `"model"` more than once is re-serialized. An escaped `\"model\"` inside a string never matches;
 * a format that names the model in the URL (`WireCodec.modelIn`) has no such key (generateContent's
 * `"role":"model"` turns are none).
 */
export function clientBytesUsable(text: string, modelInBody: boolean): boolean {
  if (!modelInBody) return true
  const first = text.indexOf('"model"')
  return first === -1 || text.indexOf('"model"', first + 7) === -1
}

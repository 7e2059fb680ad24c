import fc from 'fast-check'

/**
 * Bodies with one bad thing in them, as bytes: a key or a string value replaced by invalid UTF-8, a raw
 * control byte, an escaped NUL or lone surrogate, or an empty string; or a value replaced by a value of
 * another type. Shared by the byte-scanner properties and the HTTP properties.
 */
export type Flaw = 'invalid-utf8' | 'raw-control' | 'escaped' | 'empty' | 'wrong-type'
export interface FlawedBody { bytes: Buffer; flaw: Flaw; where: string }

/** Byte runs that are not UTF-8: a lone continuation, a cut sequence, an encoded surrogate, overlong forms. */
export const invalidUtf8 = [[0xff], [0xfe, 0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80]]
/** Inside a JSON string these are what a client may escape but never what makes a name. */
export const escapedJunk = ['\\u0000', '\\ud800', '\\udfff', 'x\\u0001', '\\u007f', '\\ud800\\ud800', 'a\\udc00b']
const rawControl = [[0x00], [0x01], [0x1f], [0x0b], [0x7f]]

const MARK = '\u0001MARK\u0001'
const markText = JSON.stringify(MARK).slice(1, -1)

/** Every place in `value` a flaw can go: keys and string values (with their paths), and any value. */
function places(value: unknown, path: string, out: Array<{ path: string; kind: 'key' | 'string' | 'value' }>): void {
  if (path) out.push({ path, kind: typeof value === 'string' ? 'string' : 'value' })
  if (Array.isArray(value)) value.forEach((item, i) => places(item, `${path}[${i}]`, out))
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push({ path: `${path}.${key}`, kind: 'key' })
      places(item, `${path}.${key}`, out)
    }
  }
}

/** `value` with the place at `path` replaced: a key renamed to the mark, or the value set to `to`. */
function replaced(value: unknown, path: string, kind: 'key' | 'string' | 'value', to: unknown, at = ''): unknown {
  if (Array.isArray(value)) return value.map((item, i) => replaced(item, path, kind, to, `${at}[${i}]`))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      const here = `${at}.${key}`
      if (here === path && kind === 'key') out[MARK] = item
      else out[key] = here === path ? to : replaced(item, path, kind, to, here)
    }
    return out
  }
  return value
}

const bytesOf = (text: string, bad: number[] | string) => {
  const at = text.indexOf(markText)
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad as never), Buffer.from(text.slice(at + markText.length))])
}

/** One flaw put into one of `bodies`. */
export function flawed(bodies: readonly unknown[]): fc.Arbitrary<FlawedBody> {
  return fc.tuple(fc.constantFrom(...bodies), fc.nat(), fc.constantFrom<Flaw>('invalid-utf8', 'raw-control', 'escaped', 'empty', 'wrong-type'), fc.nat(), fc.jsonValue({ maxDepth: 2 }))
    .map(([body, pick, flaw, which, junk]) => {
      const list: Array<{ path: string; kind: 'key' | 'string' | 'value' }> = []
      places(body, '', list)
      const place = list[pick % list.length]!
      if (flaw === 'wrong-type' || (place.kind === 'value' && flaw !== 'empty')) {
        const value = place.kind === 'key' ? body : replaced(body, place.path, 'value', junk)
        return { bytes: Buffer.from(JSON.stringify(value)), flaw: 'wrong-type' as Flaw, where: place.path }
      }
      const text = JSON.stringify(replaced(body, place.path, place.kind, MARK))
      const bad = flaw === 'empty' ? '' : flaw === 'invalid-utf8' ? invalidUtf8[which % invalidUtf8.length]! : flaw === 'raw-control' ? rawControl[which % rawControl.length]! : escapedJunk[which % escapedJunk.length]!
      return { bytes: bytesOf(text, bad), flaw, where: `${place.kind} ${place.path}` }
    })
}

import { gzipSync } from 'node:zlib'

/**
 * Structural and byte-wise mutations of a recorded client body, seeded: each gives the bytes to send, the
 * headers to change, and how it is sent (`chunks`: the body split into that many writes). The structural
 * ones pick one place in the body (a key or a value at any depth) and do one thing to it.
 */
export interface Mutation { label: string; bytes: Buffer; headers?: Record<string, string | undefined>; chunks?: number }

export type Rand = () => number

/** mulberry32: small, seeded, good enough to pick with. */
export function random(seed: number): Rand {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Path = Array<string | number>
const MARK = '\u0002MARK\u0002'
const markJson = JSON.stringify(MARK)

/** Every path in `value` (the root excluded), depth first. */
function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (at.length) out.push(at)
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...at, i], out))
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...at, key], out)
  return out
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value))

function parentOf(root: unknown, path: Path): { parent: any; key: string | number } {
  let parent: any = root
  for (const step of path.slice(0, -1)) parent = parent[step]
  return { parent, key: path.at(-1)! }
}

/** `root` with the value at `path` replaced by raw JSON text `raw` (any bytes, valid JSON or not). */
function withRaw(root: unknown, path: Path, raw: string): string {
  const copy = clone(root)
  const { parent, key } = parentOf(copy, path)
  parent[key] = MARK
  return JSON.stringify(copy).replace(markJson, () => raw)
}

/** `root` with `raw` (text such as `"k":1`) written as the first member of the object at `path`. */
function withMember(root: unknown, path: Path, raw: string): string | undefined {
  const copy = clone(root)
  const target = path.length ? parentOf(copy, path).parent[path.at(-1)!] : copy
  if (!target || typeof target !== 'object' || Array.isArray(target)) return undefined
  const entries = Object.entries(target)
  for (const key of Object.keys(target)) delete target[key]
  target[MARK] = 0
  for (const [key, value] of entries) target[key] = value
  const text = JSON.stringify(copy)
  const at = text.indexOf(`${markJson}:0`)
  return `${text.slice(0, at)}${raw}${text.slice(at + markJson.length + 2)}`
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
/** Raw JSON values of every other type, and edge values of each. */
const wrongValues = ['null', '0', '-0', '1e400', '-1e400', '1e308', '9007199254740993', '-1', '1.5', 'true', '""', '"x"', '{}', '[]', '[null]', '{"a":[{}]}', `"${'z'.repeat(70_000)}"`, '"\\ud800"', '"\\udfff\\ud800"', '"a\\u0000b"', '"\\ufeff"', nested(200), nested(254), nested(255), nested(256), nested(300)]
const oddRoles = ['narrator', 'System', 'function', 'developer', 'model', 'tool', '', 'critic']
const oddTypes = ['hologram', 'image', 'document', 'input_image', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'input_audio', 'file', 'refusal', '']
const badImages = [
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '!!!not base64' } },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
  { type: 'image', source: { type: 'url', url: 'data:image/png;base64,@@@' } },
  { type: 'image_url', image_url: { url: 'data:image/png;base64,%%%' } },
  { type: 'image_url', image_url: { url: 'data:;base64' } },
  { type: 'image_url', image_url: 'data:image/png;base64,AAAA' },
  { type: 'input_image', image_url: 'data:image/png,not-base64' },
  { type: 'input_image', image_url: 'data:' },
  { inlineData: { mimeType: 'image/png', data: '***' } },
  { inlineData: { mimeType: '', data: '' } },
  { fileData: { mimeType: 'image/png', fileUri: 'data:image/png;base64,x' } },
]
const idKeys = new Set(['id', 'tool_use_id', 'tool_call_id', 'call_id'])

/** One structural mutation of `body` at a random place. */
export function structural(body: unknown, rand: Rand): Mutation {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
  const paths = pathsOf(body)
  const path = pick(paths)
  const name = path.join('.')
  const json = (text: string, label: string): Mutation => ({ label: `${label} at ${name}`, bytes: Buffer.from(text) })
  const copy = clone(body) as any
  const { parent, key } = parentOf(copy, path)
  switch (Math.floor(rand() * 12)) {
    case 0: {
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete parent[key]
      return json(JSON.stringify(copy), 'drop')
    }
    case 1: {
      if (Array.isArray(parent)) parent.splice(key as number, 0, clone(parent[key as number]))
      else return json(withMember(body, path.slice(0, -1), `${JSON.stringify(key)}:${pick(wrongValues.slice(0, 16))}`) ?? JSON.stringify(copy), 'duplicate key first')
      return json(JSON.stringify(copy), 'duplicate element')
    }
    case 2: {
      if (Array.isArray(parent)) parent.reverse()
      else {
        const entries = Object.entries(parent).reverse()
        for (const [k] of entries) delete parent[k]
        for (const [k, v] of entries) parent[k] = v
      }
      return json(JSON.stringify(copy), 'reorder')
    }
    case 3:
    case 4:
    case 5: {
      const raw = pick(wrongValues)
      return json(withRaw(body, path, raw), `wrong value ${raw.slice(0, 16)}`)
    }
    case 6: {
      const value = parent[key]
      parent[key] = Array.isArray(value) ? [] : value && typeof value === 'object' ? {} : Array.isArray(parent) ? {} : []
      return json(JSON.stringify(copy), 'emptied')
    }
    case 7: {
      const raw = pick(['"__proto__":{"model":"evil","stream":true}', '"__proto__":null', '"constructor":{"prototype":{"polluted":1}}', '"__proto__":[1]'])
      return json(withMember(body, path.slice(0, -1), raw) ?? withMember(body, [], raw)!, `proto ${raw.slice(0, 14)}`)
    }
    case 8: {
      if (key === 'role' || key === 'type') parent[key] = pick(key === 'role' ? oddRoles : oddTypes)
      else if (parent && typeof parent === 'object' && !Array.isArray(parent)) parent.zz_unknown = { nested: [1, 'two'] }
      else parent[key] = { type: pick(oddTypes), text: 'odd' }
      return json(JSON.stringify(copy), 'unknown role/type/field')
    }
    case 9: {
      const ids = paths.filter(each => idKeys.has(String(each.at(-1))))
      const target = ids.length ? pick(ids) : path
      const at = parentOf(copy, target)
      at.parent[at.key] = pick(['mismatched_id', '', 'toolu_' + 'x'.repeat(300), 42, null])
      return json(JSON.stringify(copy), `id mismatch at ${target.join('.')}`)
    }
    case 10: {
      const lists = paths.filter(each => Array.isArray(parentOf(body, each).parent[each.at(-1)!]))
      const target = lists.length ? pick(lists) : path
      const at = parentOf(copy, target)
      const list = at.parent[at.key]
      if (Array.isArray(list)) list.push(pick(badImages))
      return json(JSON.stringify(copy), `bad image into ${target.join('.')}`)
    }
    default: {
      const raw = pick(['"\\ud800"', '"\\u0000"', '"\\uDBFF\\uDFFF"', '"\\/\\b\\f"', `"${'é'.repeat(5000)}"`])
      return { label: `string ${raw.slice(0, 12)} at ${name}`, bytes: Buffer.from(withRaw(body, path, raw)) }
    }
  }
}

/** One byte-level or transport mutation of the body's JSON text. */
export function bytewise(text: string, rand: Rand): Mutation {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
  const bytes = Buffer.from(text)
  const at = Math.floor(rand() * bytes.length)
  const splice = (insert: number[] | Buffer) => Buffer.concat([bytes.subarray(0, at), Buffer.from(insert), bytes.subarray(at)])
  switch (Math.floor(rand() * 14)) {
    case 0: return { label: 'BOM', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) }
    case 1: return { label: 'trailing garbage', bytes: Buffer.concat([bytes, Buffer.from(pick(['x', '{}', ',', ']', '\u0000', ' \n\t ', '// c', '{"model":"other"}']))]) }
    case 2: return { label: `NUL byte at ${at}`, bytes: splice([0]) }
    case 3: return { label: `overlong UTF-8 at ${at}`, bytes: splice(pick([[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80]])) }
    case 4: return { label: `cut at ${at}`, bytes: bytes.subarray(0, at) }
    case 5: return { label: 'empty body', bytes: Buffer.alloc(0) }
    case 6: return { label: 'whitespace body', bytes: Buffer.from(pick([' ', '\n\r\n\t', ' '.repeat(10_000)])) }
    case 7: return { label: 'no content-type', bytes, headers: { 'content-type': undefined } }
    case 8: return { label: 'text/plain', bytes, headers: { 'content-type': pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) } }
    case 9: return { label: 'gzip body', bytes: gzipSync(bytes), headers: { 'content-encoding': 'gzip' } }
    case 10: return { label: 'chunked, split in 1-byte writes', bytes, chunks: Math.min(bytes.length, 4000) }
    case 11: return { label: 'chunked, a few writes', bytes, chunks: 2 + Math.floor(rand() * 7) }
    case 12: return { label: `whitespace inside at ${at}`, bytes: Buffer.from(text.replace(/([,:[{])/g, (m) => rand() < 0.05 ? `${m}\n  \t` : m)) }
    default: return { label: 'byte flipped', bytes: (() => { const copy = Buffer.from(bytes); copy[at] = Math.floor(rand() * 256); return copy })() }
  }
}

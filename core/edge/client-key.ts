import { timingSafeEqual, hash } from 'node:crypto'

/** Each SDK family sends its key differently: OpenAI Bearer, messages-format `x-api-key`, generateContent `x-goog-api-key` or `?key=`. */
export function readClientKey(headers: Headers, url: URL): string | undefined {
  const auth = headers.get('authorization')
  if (auth) return (/^Bearer\s+(.+)$/i.exec(auth)?.[1] ?? auth).trim()
  return headers.get('x-api-key') ?? headers.get('x-goog-api-key') ?? url.searchParams.get('key') ?? undefined
}

/** Constant-time membership over digests; a key that matched once is remembered (a hit tells a guesser nothing, misses hash). */
export function createKeyMatcher(keys: string[]): (candidate: string | undefined) => string | undefined {
  const digests = keys.map(key => ({ key, hash: hash('sha256', key, 'buffer') }))
  const accepted = new Map<string, string>()
  return (candidate) => {
    if (candidate === undefined) return undefined
    const known = accepted.get(candidate)
    if (known !== undefined) return known
    const sent = hash('sha256', candidate, 'buffer')
    let found: string | undefined
    for (const entry of digests) if (timingSafeEqual(entry.hash, sent)) found = entry.key
    if (found !== undefined) accepted.set(candidate, found)
    return found
  }
}

const ids = new Map<string, string>()

/** A key's stable non-secret id, `key-` + 10 hex digits of its sha256, as usage, logs and rules name keys. */
export function clientKeyId(key: string): string {
  let id = ids.get(key)
  if (id === undefined) {
    id = `key-${hash('sha256', key, 'hex').slice(0, 10)}`
    if (ids.size >= 5000) ids.clear()
    ids.set(key, id)
  }
  return id
}

/** Client keys a plugin keeps besides `api-keys` (named, with rules); asked after them, any key it holds ends the no-keys mode. */
export interface ClientKeyDirectory {
  configured(): boolean
  /** The key when it is one of these (whatever its state). */
  match(sent: string): string | undefined
  /** Why this known key may not be used now (expired, disabled): the client's 401; undefined = usable. */
  refusal(key: string): string | undefined
  /** The key's name (usage records and metrics carry names, never keys). */
  nameOf(key: string): string | undefined
  /** Whether the key may use `model` (model listings show only those). */
  allowsModel(key: string, model: string): boolean
  /** Why the key (its value, or a named key's `name`) may not be served by `model`: routing skips such models. */
  modelRefusal?(key: { value?: string; name?: string }, model: string): string | undefined
  hasName?(name: string): boolean
}

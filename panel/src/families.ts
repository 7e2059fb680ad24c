import { get } from './api.ts'

/** One provider family as `GET /v0/management/providers` describes it (the server's registry, no code). */
export interface Family {
  family: string
  label: string
  format: string
  /** The API it speaks, in a user's words: `messages (/v1/messages)`. */
  'wire-format': string
  /** Where its keys send when an entry names no base URL; null when every entry names its own. */
  'default-base-url': string | null
  /** Identifier, wire format and default endpoint on one line. */
  description: string
  /** The answer to "what kind of key do you hold?" that leads to this family. */
  'key-kind': string
  'config-key': string | null
  /** Present with a config key: which editor the panel shows, and the field that identifies an entry. */
  editor?: 'key-entries' | 'named-upstreams'
  identity?: string
  'credential-file-type': string | null
  'sign-in': boolean
  'test-call': { method?: 'GET' | 'POST'; path: string } | null
  'payload-protocol': string | null
}

let cached: Promise<Family[]> | undefined
/** The registered families, asked once per page load (they change only with a restart). */
export function loadFamilies(): Promise<Family[]> {
  cached ??= get<{ providers: Family[] }>('/providers').then(answer => answer.providers, (error) => {
    cached = undefined
    throw error
  })
  return cached
}

/** Families whose config key the panel edits, named-upstream lists first (they hold most setups). */
export const editableFamilies = (families: Family[]) =>
  families.filter(family => family['config-key'] && family.editor).sort((a, b) => Number(b.editor === 'named-upstreams') - Number(a.editor === 'named-upstreams'))

/** File types with a sign-in, as the credential-files page offers them. */
export const signInTypes = (families: Family[]) => families.filter(family => family['sign-in'] && family['credential-file-type']).map(family => family['credential-file-type']!)

/** Protocols a payload rule may name: the families' own, then the experimental `proto_exp` no family owns. */
export const payloadProtocolsOf = (families: Family[]) => [...new Set([...families.map(family => family['payload-protocol']).filter((p): p is string => !!p), 'proto_exp'])]

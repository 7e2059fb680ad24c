/**
 * Provider entries <-> the panel's forms. Pure: the forms hold text, the config holds typed values.
 * `proxy-url` has three meanings (absent = the global proxy, '' = direct, a URL), so the form keeps
 * a mode next to the text.
 */
export type ProxyMode = 'global' | 'direct' | 'custom'
export interface Pair { name: string; value: string }
export interface ModelRow { name: string; alias: string }

export interface KeyEntryForm {
  apiKey: string; baseUrl: string; prefix: string; priority: string; excluded: string
  models: ModelRow[]; headers: Pair[]; proxyMode: ProxyMode; proxyUrl: string
}
export interface UpstreamKeyForm { apiKey: string; proxyMode: ProxyMode; proxyUrl: string }
export interface UpstreamForm {
  name: string; baseUrl: string; keys: UpstreamKeyForm[]; prefix: string; priority: string; excluded: string
  models: ModelRow[]; headers: Pair[]
}

type Entry = Record<string, any>

/** `a, b\nc` -> ['a', 'b', 'c']. */
export const splitList = (text: string) => text.split(/[\n,]/).map(item => item.trim()).filter(Boolean)

const proxyModeOf = (value: unknown): ProxyMode => value === undefined || value === null ? 'global' : value === '' ? 'direct' : 'custom'
const proxyValue = (mode: ProxyMode, url: string) => mode === 'global' ? undefined : mode === 'direct' ? '' : url.trim()
const headersOf = (headers: unknown): Pair[] => Object.entries((headers ?? {}) as Record<string, string>).map(([name, value]) => ({ name, value: String(value) }))
const headerObject = (pairs: Pair[]) => Object.fromEntries(pairs.filter(pair => pair.name.trim()).map(pair => [pair.name.trim(), pair.value]))
const modelsOf = (models: unknown): ModelRow[] => ((models ?? []) as Entry[]).map(model => ({ name: String(model.name ?? ''), alias: String(model.alias ?? '') }))
const modelList = (rows: ModelRow[]) => rows.filter(row => row.name.trim()).map(row => ({ name: row.name.trim(), alias: row.alias.trim() }))
/** A priority the server can check: digits stay a number, anything else goes as typed (the server names it). */
const priorityValue = (text: string): number | string => /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim() === '' ? 0 : text

export const emptyKeyEntry = (): KeyEntryForm => ({ apiKey: '', baseUrl: '', prefix: '', priority: '0', excluded: '', models: [], headers: [], proxyMode: 'global', proxyUrl: '' })
export const emptyUpstream = (): UpstreamForm => ({ name: '', baseUrl: '', keys: [{ apiKey: '', proxyMode: 'global', proxyUrl: '' }], prefix: '', priority: '0', excluded: '', models: [{ name: '', alias: '' }], headers: [] })

export function keyEntryToForm(entry: Entry): KeyEntryForm {
  return {
    apiKey: String(entry['api-key'] ?? ''), baseUrl: String(entry['base-url'] ?? ''), prefix: String(entry.prefix ?? ''),
    priority: String(entry.priority ?? 0), excluded: ((entry['excluded-models'] ?? []) as string[]).join(', '),
    models: modelsOf(entry.models), headers: headersOf(entry.headers),
    proxyMode: proxyModeOf(entry['proxy-url']), proxyUrl: typeof entry['proxy-url'] === 'string' ? entry['proxy-url'] : '',
  }
}

export function formToKeyEntry(form: KeyEntryForm): Entry {
  const proxy = proxyValue(form.proxyMode, form.proxyUrl)
  return {
    'api-key': form.apiKey.trim(), prefix: form.prefix.trim(), 'base-url': form.baseUrl.trim(), 'excluded-models': splitList(form.excluded),
    models: modelList(form.models), headers: headerObject(form.headers), priority: priorityValue(form.priority),
    ...(proxy !== undefined && { 'proxy-url': proxy }),
  }
}

export function upstreamToForm(entry: Entry): UpstreamForm {
  const keys = ((entry['api-key-entries'] ?? []) as Entry[]).map(key => ({ apiKey: String(key['api-key'] ?? ''), proxyMode: proxyModeOf(key['proxy-url']), proxyUrl: typeof key['proxy-url'] === 'string' ? key['proxy-url'] : '' }))
  return {
    name: String(entry.name ?? ''), baseUrl: String(entry['base-url'] ?? ''), keys, prefix: String(entry.prefix ?? ''), priority: String(entry.priority ?? 0),
    excluded: ((entry['excluded-models'] ?? []) as string[]).join(', '), models: modelsOf(entry.models), headers: headersOf(entry.headers),
  }
}

export function formToUpstream(form: UpstreamForm): Entry {
  return {
    name: form.name.trim(), 'base-url': form.baseUrl.trim(),
    'api-key-entries': form.keys.filter(key => key.apiKey.trim() || key.proxyMode !== 'global').map((key) => {
      const proxy = proxyValue(key.proxyMode, key.proxyUrl)
      return { 'api-key': key.apiKey.trim(), ...(proxy !== undefined && { 'proxy-url': proxy }) }
    }),
    models: modelList(form.models), headers: headerObject(form.headers), prefix: form.prefix.trim(),
    'excluded-models': splitList(form.excluded), priority: priorityValue(form.priority),
  }
}

/** Whether saving an edit must replace the whole list: PATCH merges fields, so it cannot remove `proxy-url`. */
export function needsReplace(before: Entry, after: Entry): boolean {
  if ('proxy-url' in before && !('proxy-url' in after)) return true
  const keys = (entry: Entry) => ((entry['api-key-entries'] ?? []) as Entry[])
  return keys(before).some((key, i) => 'proxy-url' in key && !(keys(after)[i] && 'proxy-url' in keys(after)[i]!))
}

/** `sk-abcdef1234567890` -> `sk-a…7890`, as the server masks keys. */
export const maskKey = (key: string) => !key ? '(none)' : key.length < 16 ? '****' : `${key.slice(0, 4)}…${key.slice(-4)}`

/** The credential id the server gives an entry of each editor kind (core/provider/provider-keys.ts; a named upstream's first key). */
export const keyEntryCredentialId = (family: string, index: number) => `${family}:${index}`
export const upstreamCredentialId = (family: string, name: string, index: number, keyIndex = 0) => `${family}:${name}:${index}.${keyIndex}`

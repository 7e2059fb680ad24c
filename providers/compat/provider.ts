import { defineProvider, type Credential } from 'model-proxy'
import { pickClientHeaders } from 'model-proxy/kit/http'
import { compatConfig, type CompatProviderEntry } from './config.ts'

/** `https://host/v1/` -> `https://host/v1` so paths join cleanly. */
const trimSlash = (url: string) => url.replace(/\/+$/, '')

/** One credential per `api-key-entries[]` item (a keyless entry still yields one: local servers need none). */
export function compatCredentials(entry: CompatProviderEntry, index: number): Credential[] {
  const keys = entry['api-key-entries'].length ? entry['api-key-entries'] : [{ 'api-key': '', 'proxy-url': undefined }]
  return keys.map((key, keyIndex) => ({
    id: `compat:${entry.name}:${index}.${keyIndex}`,
    family: 'compat',
    provider: entry.name,
    apiKey: key['api-key'] || undefined,
    baseUrl: trimSlash(entry['base-url']),
    headers: entry.headers,
    prefix: entry.prefix,
    priority: entry.priority,
    proxyUrl: key['proxy-url'],
    models: entry.models.map(model => ({ id: model.alias || model.name, upstream: model.name })),
    excludedModels: entry['excluded-models'],
    attributes: {},
  }))
}

const paths: Record<string, string> = { chat: '/chat/completions', completions: '/completions' }
/** The one client header that changes what an OpenAI-style chat endpoint does: its feature gates. */
export const compatClientHeaders = ['openai-beta'] as const

/** OpenAI-compatible upstreams: chat-completions wire format, Bearer key, `base-url` ending in `/v1`. */
export const compatProvider = defineProvider({
  family: 'compat',
  label: 'Compat providers (OpenAI-compatible)',
  format: 'chat',
  config: compatConfig,
  testCall: { path: '/models' },
  payloadProtocol: 'proto_chat',
  credentials: (_config, entries) => entries.flatMap(compatCredentials),
  buildRequest({ credential, body, stream, endpoint, clientHeaders }) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', ...pickClientHeaders(clientHeaders, compatClientHeaders), ...credential.headers }
    if (credential.apiKey) headers.authorization = `Bearer ${credential.apiKey}`
    return { url: credential.baseUrl + (paths[endpoint] ?? paths.chat), method: 'POST', headers, json: body, proxyUrl: credential.proxyUrl }
  },
})

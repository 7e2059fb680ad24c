import type { WireFormat } from './codec.ts'

/** The built-in wire formats in a user's words: the API's name and the client path that speaks it. */
export const wireFormatNames = {
  chat: { name: 'chat completions', path: '/v1/chat/completions' },
  responses: { name: 'responses', path: '/v1/responses' },
  messages: { name: 'messages', path: '/v1/messages' },
  generate: { name: 'generateContent', path: '/v1beta/models/{model}:generateContent' },
} as const

/** `messages (/v1/messages)`; a format a plugin registered is named as it is. */
export function describeWireFormat(format: WireFormat): string {
  const known = (wireFormatNames as Record<string, { name: string; path: string }>)[format]
  return known ? `${known.name} (${known.path})` : format
}

/** What a provider family is, for people who never heard its name: its wire format and where it sends by default. */
export interface FamilyWords {
  family: string
  format: WireFormat
  /** Default endpoint; absent when every entry names its own base URL. */
  baseUrl?: string
}

/** `beta: messages wire format (/v1/messages), default endpoint https://api.anthropic.com` */
export function describeFamily({ family, format, baseUrl }: FamilyWords): string {
  return `${family}: ${describeWireFormat(format)} wire format, ${baseUrl ? `default endpoint ${baseUrl}` : 'endpoint set per entry (base-url)'}`
}

/** The question the panel's "add a key" flow asks, answered per family: `a key for the messages API (https://api.anthropic.com)`. */
export function keyKindOf({ format, baseUrl }: FamilyWords): string {
  const known = (wireFormatNames as Record<string, { name: string }>)[format]
  const api = known ? `the ${known.name} API` : `the ${format} API`
  return baseUrl ? `a key for ${api} at ${baseUrl}` : `a key for ${api} of any compatible service (you give its base URL)`
}

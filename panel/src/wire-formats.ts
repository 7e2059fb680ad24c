/** The four client wire formats the proxy speaks, as the panel names them (a family's `format` is one of these ids). */
export const wireFormats = {
  chat: { label: 'chat completions', path: '/v1/chat/completions' },
  responses: { label: 'responses', path: '/v1/responses' },
  messages: { label: 'messages', path: '/v1/messages' },
  generate: { label: 'generateContent', path: '/v1beta/models/{model}:generateContent' },
} as const

export type WireFormatId = keyof typeof wireFormats

export const isWireFormat = (value: string): value is WireFormatId => value in wireFormats

/** `messages (/v1/messages)`; an id the panel does not know is shown as it is. */
export const describeFormat = (format: string) => isWireFormat(format) ? `${wireFormats[format].label} (${wireFormats[format].path})` : format

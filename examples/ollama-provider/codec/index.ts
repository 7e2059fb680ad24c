import { defineCodec } from 'model-proxy'
import { decodeRequest, encodeRequest } from './request.ts'
import { decodeResponse, encodeResponse } from './response.ts'
import { createStreamDecoder, createStreamEncoder } from './stream.ts'

/** The `ollama` wire format: `/api/chat` bodies, NDJSON streams, `{ "error": "..." }` errors. */
export const ollamaCodec = defineCodec({
  format: 'ollama',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
  stream: { framing: 'ndjson', createDecoder: createStreamDecoder, createEncoder: createStreamEncoder },
  error: {
    encode: info => ({ error: info.message }),
    decode: (status, body) => ({
      status,
      message: typeof (body as { error?: unknown })?.error === 'string' ? (body as { error: string }).error : typeof body === 'string' && body ? body : `ollama answered ${status}`,
    }),
  },
})

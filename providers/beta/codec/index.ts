import { defineCodec } from 'model-proxy'
import { messagesModelList } from './model-list.ts'
import { decodeCountTokens, decodeMessagesRequest } from './request-decode.ts'
import { encodeMessagesRequest } from './request-encode.ts'
import { decodeMessagesResponse, encodeMessagesResponse } from './response.ts'
import { createMessagesStreamDecoder } from './stream-decode.ts'
import { createMessagesStreamEncoder } from './stream-encode.ts'
import { decodeMessagesError, encodeMessagesError, statusForMessagesError } from './error.ts'

/** The messages wire format (`/v1/messages`), both directions. */
export const messagesCodec = defineCodec({
  format: 'messages',
  models: messagesModelList,
  request: { decode: decodeMessagesRequest, encode: encodeMessagesRequest },
  response: { decode: decodeMessagesResponse, encode: encodeMessagesResponse },
  stream: {
    createDecoder: createMessagesStreamDecoder,
    createEncoder: createMessagesStreamEncoder,
  },
  error: { encode: encodeMessagesError, decode: decodeMessagesError, status: statusForMessagesError },
})

export { decodeCountTokens }

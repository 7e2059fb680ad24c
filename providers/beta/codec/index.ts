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
    // Usage comes in message_start (prompt, cache reads and writes) and message_delta (output); message_stop or an error ends it.
    // Named in the data, or by the event line alone (the decoder reads the type there when the data has none).
    markers: [
      ...['message_start', 'message_delta'].flatMap(type => [{ text: `"${type}"`, usage: true }, { text: `event:${type}`, usage: true }]),
      { text: '"message_stop"' }, { text: 'event:message_stop' },
      { text: '"error"', value: 'object' }, { text: 'event:error' },
    ],
  },
  error: { encode: encodeMessagesError, decode: decodeMessagesError, status: statusForMessagesError },
})

export { decodeCountTokens }

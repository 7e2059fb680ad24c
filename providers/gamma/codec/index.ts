import { defineCodec } from 'model-proxy'
import { overloadedAsUnavailable } from 'model-proxy/kit/errors'
import { decodeError, encodeError, statusForResponsesError } from './error.ts'
import { decodeCompact, decodeInputTokens, decodeRequest } from './request-decode.ts'
import { encodeRequest } from './request-encode.ts'
import { decodeResponse } from './response-decode.ts'
import { encodeResponse } from './response-encode.ts'
import { createStreamDecoder } from './stream-decode.ts'
import { createStreamEncoder } from './stream-encode.ts'

/** The responses wire format (`/v1/responses`), both directions. */
export const responsesCodec = defineCodec({
  format: 'responses',
  request: { decode: decodeRequest, encode: encodeRequest },
  response: { decode: decodeResponse, encode: encodeResponse },
  stream: {
    createDecoder: createStreamDecoder,
    createEncoder: createStreamEncoder,
  },
  error: { encode: encodeError, decode: decodeError, status: statusForResponsesError, forClient: overloadedAsUnavailable },
})

export { decodeCompact, decodeInputTokens }

import { overloadedAsUnavailable } from 'model-proxy/kit/errors'
import { defineCodec } from 'model-proxy'
import { generateModelList } from './model-list.ts'
import { decodeGenerateRequest } from './request-decode.ts'
import { encodeGenerateRequest } from './request-encode.ts'
import { decodeGenerateResponse, encodeGenerateResponse } from './response.ts'
import { createGenerateStreamDecoder } from './stream-decode.ts'
import { createGenerateStreamEncoder } from './stream-encode.ts'
import { decodeGenerateError, encodeGenerateError, statusForGenerateError } from './error.ts'

/** The generateContent wire format (`/v1beta/models/{model}:generateContent`), both directions. */
export const generateCodec = defineCodec({
  format: 'generate',
  // The model travels in the URL; answers name it in `modelVersion`.
  modelIn: 'url',
  modelEcho: ['modelVersion'],
  models: generateModelList,
  request: { decode: decodeGenerateRequest, encode: encodeGenerateRequest },
  response: { decode: decodeGenerateResponse, encode: encodeGenerateResponse },
  stream: {
    createDecoder: createGenerateStreamDecoder,
    createEncoder: createGenerateStreamEncoder,
  },
  error: { encode: encodeGenerateError, decode: decodeGenerateError, status: statusForGenerateError, forClient: overloadedAsUnavailable },
})

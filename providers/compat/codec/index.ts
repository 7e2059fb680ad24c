import { defineCodec } from 'model-proxy'
import { overloadedAsUnavailable } from 'model-proxy/kit/errors'
import { openaiModelList } from './model-list.ts'
import { decodeChatRequest } from './request-decode.ts'
import { encodeChatRequest } from './request-encode.ts'
import { decodeChatResponse, encodeChatResponse } from './response.ts'
import { createChatStreamDecoder } from './stream-decode.ts'
import { createChatStreamEncoder } from './stream-encode.ts'
import { chatUsageOption } from './usage-option.ts'
import { decodeChatError, encodeChatError, statusForChatError } from './error.ts'

/** The chat-completions wire format (`/v1/chat/completions`), both directions. */
export const chatCodec = defineCodec({
  format: 'chat',
  models: openaiModelList,
  request: { decode: decodeChatRequest, encode: encodeChatRequest },
  response: { decode: decodeChatResponse, encode: encodeChatResponse },
  stream: { createDecoder: createChatStreamDecoder, createEncoder: createChatStreamEncoder, usageOption: chatUsageOption },
  error: { encode: encodeChatError, decode: decodeChatError, status: statusForChatError, forClient: overloadedAsUnavailable },
})

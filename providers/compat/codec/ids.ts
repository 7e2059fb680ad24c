import { randomToken } from 'model-proxy/kit/codec'

/** `chatcmpl-` + 24 random alphanumerics, the shape OpenAI uses. */
export const chatCompletionId = () => `chatcmpl-${randomToken(24)}`
export const toolCallId = () => `call_${randomToken(24)}`

import { randomToken } from 'model-proxy/internal'

/** `chatcmpl-` + 24 random alphanumerics, the shape OpenAI uses. */
export const chatCompletionId = () => `chatcmpl-${randomToken(24)}`
export const toolCallId = () => `call_${randomToken(24)}`

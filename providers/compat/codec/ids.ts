import { randomBytes } from 'node:crypto'

/** `chatcmpl-` + 24 random alphanumerics, the shape OpenAI uses. */
export const chatCompletionId = () => `chatcmpl-${randomBytes(18).toString('base64url').replace(/[-_]/g, '').slice(0, 24)}`
export const toolCallId = () => `call_${randomBytes(18).toString('base64url').replace(/[-_]/g, '').slice(0, 24)}`

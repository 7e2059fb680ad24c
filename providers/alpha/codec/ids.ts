import { randomBytes } from 'node:crypto'

/** Call ids for function calls, which this format often sends without one. */
export const callId = () => `call_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 16)}`
export const responseId = () => randomBytes(12).toString('base64url')

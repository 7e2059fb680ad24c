import { randomToken } from 'model-proxy/kit/codec'

/** Call ids for function calls, which this format often sends without one. */
export const callId = () => `call_${randomToken(16)}`
export const responseId = () => randomToken(16)

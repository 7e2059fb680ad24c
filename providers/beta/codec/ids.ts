import { randomToken } from 'model-proxy/kit/codec'

const token = () => randomToken(24)
export const messageId = () => `msg_${token()}`
export const toolUseId = () => `toolu_${token()}`

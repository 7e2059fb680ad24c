import { randomToken } from 'model-proxy/internal'

const token = () => randomToken(24)
export const messageId = () => `msg_${token()}`
export const toolUseId = () => `toolu_${token()}`

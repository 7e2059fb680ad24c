import { randomBytes } from 'node:crypto'

const token = () => randomBytes(18).toString('base64url').replace(/[-_]/g, '').slice(0, 24)
export const messageId = () => `msg_${token()}`
export const toolUseId = () => `toolu_${token()}`

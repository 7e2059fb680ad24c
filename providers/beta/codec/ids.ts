import { randomToken } from '../../../core/canonical/random-id.ts'

const token = () => randomToken(24)
export const messageId = () => `msg_${token()}`
export const toolUseId = () => `toolu_${token()}`

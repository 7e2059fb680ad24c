import { describe, expect, it } from 'vitest'
import { RequestValidationError } from '../canonical/errors.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { toErrorInfo } from './error-response.ts'
import { encodeChatError } from '../../providers/compat/codec/error.ts'
import { encodeError } from '../../providers/gamma/codec/error.ts'

describe('toErrorInfo', () => {
  it('a validation error names its field, as OpenAI does (param and the invalid_value code), in the chat and responses bodies', () => {
    const info = toErrorInfo(new RequestValidationError('input[3].role must be a string', 'input[3].role'))
    expect(info).toEqual({ status: 400, message: 'input[3].role must be a string', type: 'invalid_request_error', code: 'invalid_value', param: 'input[3].role' })
    expect(encodeError(info)).toEqual({ error: { message: 'input[3].role must be a string', type: 'invalid_request_error', code: 'invalid_value', param: 'input[3].role' } })
    expect(encodeChatError(info)).toMatchObject({ error: { param: 'input[3].role', code: 'invalid_value' } })
  })

  it('without a field: no code, param null', () => {
    const info = toErrorInfo(new RequestValidationError('messages must be a list'))
    expect(info).toEqual({ status: 400, message: 'messages must be a list', type: 'invalid_request_error' })
    expect(encodeError(info)).toMatchObject({ error: { code: null, param: null } })
  })

  it('anything unknown is a 500 without internals; a ProxyError keeps its own', () => {
    expect(toErrorInfo(new TypeError('x is undefined'))).toEqual({ status: 500, message: 'internal server error', type: 'server_error' })
    expect(toErrorInfo(new ProxyError(429, 'slow down', 'rate_limit_error')).status).toBe(429)
  })
})

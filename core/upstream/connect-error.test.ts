import { describe, expect, it } from 'vitest'
import { describeConnectFailure } from './connect-error.ts'

const netError = (message: string, extra: Record<string, unknown>) => Object.assign(new Error(message), extra)

describe('describeConnectFailure', () => {
  it.each([
    ['refused, direct', netError('connect ECONNREFUSED 127.0.0.1:21115', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 21115 }), undefined, 'upstream connection failed: connection refused'],
    ['unknown host', netError('getaddrinfo ENOTFOUND internal.example', { code: 'ENOTFOUND' }), undefined, 'upstream connection failed: host name not found'],
    ['connect timeout', netError('Connect Timeout Error (attempted address: 10.0.0.8:443, timeout: 10000ms)', { code: 'UND_ERR_CONNECT_TIMEOUT' }), undefined, 'upstream connection failed: connection timed out'],
    ['wrapped cause', new Error('fetch failed', { cause: netError('connect ECONNRESET 10.1.2.3:443', { code: 'ECONNRESET' }) }), undefined, 'upstream connection failed: connection reset'],
    ['proxy refused', netError('connect ECONNREFUSED 127.0.0.1:21115', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 21115 }), 'http://127.0.0.1:21115', 'the outbound proxy could not be reached: connection refused'],
    ['proxy refused the tunnel', netError('Proxy response (502) !== 200 when HTTP Tunneling', { code: 'UND_ERR_ABORTED' }), 'http://10.0.0.2:3128', 'the outbound proxy refused the tunnel to the upstream (proxy answered 502)'],
    ['upstream through proxy', netError('read ECONNRESET', { code: 'ECONNRESET' }), 'socks5://10.0.0.2:1080', 'upstream connection through the outbound proxy failed: connection reset'],
  ])('%s', (_name, error, proxyUrl, message) => {
    const described = describeConnectFailure(error, proxyUrl)
    expect(described.message).toBe(message)
    expect(described.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|example/)
    expect(described.detail).toContain(error.message)
  })
})

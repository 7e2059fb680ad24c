import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { sharedPart, withLocalPart } from './local-keys.ts'

const file = `# instance a: this comment goes with host
host: 127.0.0.1
port: 8317 # a's port
# client keys
api-keys: [one]
auth-dir: /srv/a/auths
request-retry: 2
`

describe('instance-local keys', () => {
  it('the shared part leaves them out, with their comments', () => {
    const shared = sharedPart(file)
    expect(parse(shared)).toEqual({ 'api-keys': ['one'], 'request-retry': 2 })
    expect(shared).toContain('# client keys')
    expect(shared).not.toContain("a's port")
  })

  it('puts them back where the file has them; the round trip is exact', () => {
    const shared = sharedPart(file)
    // Byte for byte: lines nobody changed keep their layout (`[one]` stays `[one]`).
    expect(withLocalPart(shared, file)).toBe(file)
    const fromElsewhere = sharedPart(file.replace('request-retry: 2', 'request-retry: 5'))
    const mine = withLocalPart(fromElsewhere, file.replace('/srv/a/auths', '/srv/b/auths').replace('8317', '8318'))
    expect(parse(mine)).toMatchObject({ host: '127.0.0.1', port: 8318, 'auth-dir': '/srv/b/auths', 'request-retry': 5 })
    expect(sharedPart(mine)).toBe(fromElsewhere)
  })

  it('a file without them, or not parsing, is all shared', () => {
    expect(sharedPart('api-keys: [x]\n')).toBe('api-keys: [x]\n')
    expect(withLocalPart('api-keys: [x]\n', undefined)).toBe('api-keys: [x]\n')
    expect(sharedPart('port: [1, 2')).toBe('port: [1, 2')
  })
})

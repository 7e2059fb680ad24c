import { describe, expect, it } from 'vitest'
import { changedInFile } from './config-file.ts'

describe('changedInFile', () => {
  const before = 'port: 8317\nremote-management:\n  secret-key: plain\n'
  it.each([
    // [running config's changed paths, before, after, expected]
    [['client-keys', 'otel', 'remote-management.secret-key'], before, 'port: 8317\nremote-management:\n  secret-key: $2b$hash\n', ['remote-management.secret-key']],
    [['port'], before, 'port: 9000\nremote-management:\n  secret-key: plain\n', ['port']],
    [['api-keys'], before, `${before}api-keys: [a]\n`, ['api-keys']],
    [['routing.strategy'], 'routing: {}\n', 'routing:\n  strategy: fill-first\n', ['routing.strategy']],
    [['otel'], before, before, []],
    [['otel'], undefined, before, ['otel']],
  ] as const)('%j, file edited: %j', (changed, from, to, expected) => {
    expect(changedInFile([...changed], from, to)).toEqual(expected)
  })
})

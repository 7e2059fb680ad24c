import { describe, expect, it } from 'vitest'
import { namespaced, namespacedUri, splitName, splitUri } from './names.ts'
import { accessFor } from './access.ts'
import { mcpConfigSchema, mcpSettingsOf } from './schema.ts'
import { backoffMs } from './upstream.ts'

describe('gateway names', () => {
  it.each([
    ['fs', 'read_file', 'fs__read_file'],
    ['my-server', 'a__b', 'my-server__a__b'],
  ])('%s + %s <-> %s', (server, name, joined) => {
    expect(namespaced(server, name)).toBe(joined)
    expect(splitName(joined)).toEqual({ server, name })
  })
  it('a name without a server is no gateway name', () => {
    expect(splitName('read_file')).toBeUndefined()
    expect(splitName('__x')).toBeUndefined()
  })
  it('URIs keep their own scheme behind the server', () => {
    expect(namespacedUri('everything', 'demo://resource/static/1')).toBe('everything+demo://resource/static/1')
    expect(splitUri('everything+demo://resource/static/1')).toEqual({ server: 'everything', uri: 'demo://resource/static/1' })
    expect(splitUri('file:///x')).toBeUndefined()
  })
})

describe('access per key', () => {
  const settings = mcpSettingsOf(mcpConfigSchema.parse({
    mcp: {
      bundles: { readonly: ['fs__read_*', 'fs__list_*'] },
      access: {
        alice: { servers: ['fs', 'memory'], 'deny-tools': ['memory__delete_*'] },
        bob: { bundles: ['readonly'], 'calls-per-minute': 5 },
        '*': { servers: ['memory'] },
      },
    },
  }))
  it.each([
    ['alice', 'fs', 'fs__write_file', true],
    ['alice', 'memory', 'memory__delete_entities', false],
    ['alice', 'everything', 'everything__echo', false],
    ['bob', 'fs', 'fs__read_text_file', true],
    ['bob', 'fs', 'fs__write_file', false],
    ['carol', 'memory', 'memory__read_graph', true],
    ['carol', 'fs', 'fs__read_text_file', false],
    [undefined, 'memory', 'memory__read_graph', true],
  ] as const)('%s on %s may call %s: %s', (key, server, tool, allowed) => {
    expect(accessFor(settings, key).tool(server, tool)).toBe(allowed)
  })
  it('no entries: everything; entries without `*`: nothing for others', () => {
    expect(accessFor(mcpSettingsOf({}), 'x').tool('fs', 'fs__a')).toBe(true)
    const listed = mcpSettingsOf(mcpConfigSchema.parse({ mcp: { access: { alice: {} } } }))
    expect(accessFor(listed, 'eve').server('fs')).toBe(false)
    expect(accessFor(listed, 'alice').tool('fs', 'fs__a')).toBe(true)
  })
  it('an unknown bundle is a config error', () => {
    expect(mcpConfigSchema.safeParse({ mcp: { access: { a: { bundles: ['nope'] } } } }).success).toBe(false)
  })
  it('a server is stdio or remote, named once', () => {
    expect(mcpConfigSchema.safeParse({ 'mcp-servers': [{ name: 'a', command: 'x' }, { name: 'b', url: 'http://127.0.0.1:1/mcp' }] }).success).toBe(true)
    expect(mcpConfigSchema.safeParse({ 'mcp-servers': [{ name: 'a', command: 'x' }, { name: 'a', command: 'y' }] }).success).toBe(false)
    expect(mcpConfigSchema.safeParse({ 'mcp-servers': [{ name: 'a_b', command: 'x' }] }).success).toBe(false)
    expect(mcpConfigSchema.safeParse({ 'mcp-servers': [{ name: 'a' }] }).success).toBe(false)
  })
  it('backoff doubles to a minute', () => {
    expect([1, 2, 3, 7, 20].map(backoffMs)).toEqual([1000, 2000, 4000, 60_000, 60_000])
  })
})

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are config references, not templates
import { describe, expect, it } from 'vitest'
import { resolveSecretRefs } from './secret-refs.ts'

const sources = {
  env: { KEY: 'k-123', EMPTY: '' } as NodeJS.ProcessEnv,
  readFile: (path: string) => {
    if (path === '/run/secrets/pw') return 'pass-word\n'
    throw Object.assign(new Error('no such file'), { code: 'ENOENT' })
  },
}

describe('${env:…} and ${file:…} references', () => {
  it('resolve anywhere in a string, in lists and nested objects', () => {
    const data = { 'api-keys': ['${env:KEY}', 'plain'], storage: { url: 'redis://u:${file:/run/secrets/pw}@h:1' }, empty: '${env:EMPTY}', port: 1 }
    expect(resolveSecretRefs(data, sources)).toEqual({
      data: { 'api-keys': ['k-123', 'plain'], storage: { url: 'redis://u:pass-word@h:1' }, empty: '', port: 1 },
      issues: [],
    })
  })

  it('a missing variable or file is a problem naming the key, never the value', () => {
    const { issues } = resolveSecretRefs({ a: ['${env:NOPE}'], b: { c: '${file:/nope}' } }, sources)
    expect(issues).toEqual(['a[0]: environment variable NOPE is not set', 'b.c: cannot read /nope (ENOENT)'])
  })

  it('data without references passes through as the same object; other ${…} text stays', () => {
    const data = { a: 'cost ${5}', b: ['x'] }
    expect(resolveSecretRefs(data, sources).data).toBe(data)
  })

  it('in a browser (no environment) nothing is resolved', () => {
    const data = { a: '${env:KEY}' }
    expect(resolveSecretRefs(data, { env: undefined, readFile: sources.readFile })).toEqual({ data, issues: [] })
  })
})

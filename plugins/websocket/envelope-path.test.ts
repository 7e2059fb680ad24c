import { describe, expect, it } from 'vitest'
import { resolveEnvelopePath } from './envelope-path.ts'

describe('resolveEnvelopePath', () => {
  it.each([
    ['/v1/chat/completions', '/v1/chat/completions'],
    ['/v1/./chat/completions', '/v1/chat/completions'],
    ['/v1/messages/count_tokens', '/v1/messages/count_tokens'],
    ['/v1beta/models/gemini-x:streamGenerateContent?alt=sse', '/v1beta/models/gemini-x:streamGenerateContent?alt=sse'],
    ['/v1beta/models/a%20b:countTokens', '/v1beta/models/a%20b:countTokens'],
  ])('%s -> %s', (path, resolved) => {
    expect(resolveEnvelopePath(path)).toBe(resolved)
  })

  it.each([
    '/v1beta/models/..\\..\\..\\api\\user\\profile:generateContent',
    '/v1beta/models/%2e%2e/%2e%2e/api/user/profile:generateContent',
    '/v1beta/models/.%2E/x:countTokens',
    '/v1/chat/completions/../../api/user/profile',
    '/v1/chat/completions/..',
    '//partner.example/v1/chat/completions',
    '/\\partner.example/v1/chat/completions',
    'http://partner.example/v1/chat/completions',
    'v1/chat/completions',
    '/v1/ws',
    '/v0/management/config',
    '/api/provider/x/v1/chat/completions',
    '/v1beta/models/m:generateContent/..',
    '',
  ])('%s is refused', (path) => {
    expect(resolveEnvelopePath(path)).toBeUndefined()
  })
})

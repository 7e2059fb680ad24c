import { describe, expect, it } from 'vitest'
import { upstreamUrlProblem } from './upstream-url.ts'

describe('upstreamUrlProblem', () => {
  it.each([
    ['https://api.example.com/v1', undefined],
    ['http://127.0.0.1:9/v1', undefined],
    ['https://host/v1?api-version=2024', undefined],
    ['file:///etc/passwd', 'must be an http(s) URL'],
    ['gopher://host:70/', 'must be an http(s) URL'],
    ['javascript:alert(1)', 'must be an http(s) URL'],
    ['not a url', 'must be an http(s) URL'],
    ['https://user:pass@host/v1', 'must not contain credentials (user:pass@)'],
    ['https://token@host/v1', 'must not contain credentials (user:pass@)'],
  ])('%s -> %s', (url, problem) => {
    expect(upstreamUrlProblem(url)).toBe(problem)
  })
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readYamlConfig } from './yaml-layers.ts'
import { validateConfig } from './validate.ts'

/** At start-up: an entry's unknown key, or a top-level key no schema has, stops the start with its path. */
const dir = mkdtempSync(join(tmpdir(), 'proxy-strict-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const start = (text: string) => {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(path, text)
  return readYamlConfig(path, [], [z.looseObject({ 'compat-provider': z.unknown() })])
}

describe('start-up refuses unknown keys, naming where', () => {
  it.each([
    ['routing:\n  rules:\n    - { when: { models: ["claude-*"] }, model: fast }\n', /routing\.rules\[0\]: Unrecognized key: "when"/],
    ['fallbacks:\n  fast: [{ model: x }]\n', /fallbacks\.fast\[0\]/],
    ['payload:\n  override:\n    - { models: [{ name: x }], params: {}, match: y }\n', /payload\.override\[0\]: Unrecognized key: "match"/],
    ['oauth-model-alias:\n  alpha: [{ name: a, alias: b, fork: false, extra: 1 }]\n', /oauth-model-alias\.alpha\[0\]: Unrecognized key: "extra"/],
    ['routng:\n  strategy: fill-first\n', /routng: unknown key/],
  ])('%j', async (text, message) => {
    await expect(start(text)).rejects.toThrow(message)
  })

  it('the keys that exist are accepted', async () => {
    await expect(start('routing:\n  rules:\n    - { name: r, models: ["claude-*"], tokens-over: 10, background: true, thinking: false, images: true, web-search: false, sub-agent: true, client-keys: [a], headers: { x-a: b }, model: fast }\ncompat-provider: []\n')).resolves.toBeTruthy()
  })

  it('a document that is not a mapping is refused', () => {
    for (const value of ['text', 42, ['a']]) expect(() => validateConfig(value)).toThrow(/must be a mapping/)
  })
})

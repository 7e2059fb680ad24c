import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { runCli } from '../helpers/spawn-cli.ts'
import { baseYaml, managementSecret, startManagedProxy } from '../management/helpers.ts'
import { compileRules } from '../../plugins/payload-rules/compile.ts'
import { applyRules } from '../../plugins/payload-rules/apply.ts'
import { mergeLayers } from '../../core/config/yaml-layers.ts'

/**
 * Issue 18.3: a payload-rule path (or any key a client or a config layer controls) must never reach
 * `Object.prototype`. Paths with `__proto__`, `constructor` or `prototype` segments are refused when the
 * config is loaded, by every JSON-path writer, and `__proto__` keys of client JSON are never merged.
 */

const polluted = () => Object.keys(Object.prototype).concat(Object.getOwnPropertyNames(Object.prototype).filter(name => /polluted/.test(name)))
afterEach(() => {
  // Leave the worker clean whatever happened, so one failure does not cascade.
  for (const name of polluted()) delete (Object.prototype as Record<string, unknown>)[name]
})

const unsafePaths = ['__proto__.polluted', 'constructor.prototype.polluted', 'a.__proto__.polluted', 'messages[0].__proto__.polluted', 'prototype.polluted']

let upstream: MockUpstream
beforeAll(async () => { upstream = await startMockUpstream(messagesMock) })
afterAll(() => upstream.close())

describe('at load time', () => {
  it.each(unsafePaths)('a config file with the payload path %s stops the process (exit 1, the path named)', async (path) => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-proto-'))
    try {
      writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\npayload:\n  override:\n    - params: { ${JSON.stringify(path)}: 'x-polluted' }\n`)
      const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir)
      // Either it exits (the fix) or it listens (the defect): both end the wait.
      const listened = cli.url.then(async () => { await cli.kill('SIGKILL'); return 'listened' }, () => cli.exit)
      const code: number | string | null = await Promise.race([cli.exit, listened])
      expect(code, cli.output()).toBe(1)
      expect(cli.output()).toContain('payload.override[0].params')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a filter path with __proto__ is refused too, and a management write of one answers 400 and changes nothing', async () => {
    const managed = await startManagedProxy(baseYaml)
    try {
      const put = await fetch(`${managed.proxy.url}/v0/management/config.yaml`, {
        method: 'PUT', headers: { authorization: `Bearer ${managementSecret}` },
        body: `${baseYaml}payload:\n  filter:\n    - params: ['__proto__.polluted']\n  override:\n    - params: { 'constructor.prototype.polluted': 1 }\n`,
      })
      expect(put.status).toBe(400)
      const body = await put.json()
      expect(body.error).toBe('invalid_config')
      expect(body.message).toContain('payload.filter[0].params')
      expect(body.message).toContain('payload.override[0].params')
      expect(managed.text()).not.toContain('polluted')
    } finally {
      await managed.close()
    }
  })
})

describe('in every JSON-path writer', () => {
  it('rules built past validation (a plugin, a stale config) do not write through __proto__ or constructor', () => {
    const warnings: string[] = []
    const payload = { default: [], 'default-raw': [], 'override-raw': [], filter: [{ models: [], params: ['__proto__.toString'] }], override: [{ models: [], params: Object.fromEntries(unsafePaths.map(path => [path, 'x-polluted'])) }] }
    const rules = compileRules(payload, message => warnings.push(message))
    expect(rules).toEqual([])
    expect(warnings.join('\n')).toContain('payload.override[0]')
    expect(warnings.join('\n')).toContain('payload.filter[0]')
    const body: Record<string, unknown> = { messages: [{}] }
    expect(() => applyRules(body, [{ kind: 'override', name: 'x', models: [], params: [{ path: ['__proto__', 'polluted'], value: 1 }] }], { models: ['m'], protocol: 'proto_chat' })).toThrow(/__proto__/)
    expect(() => applyRules(body, [{ kind: 'filter', name: 'x', models: [], params: [{ path: ['constructor', 'prototype', 'toString'] }] }], { models: ['m'], protocol: 'proto_chat' })).toThrow(/constructor/)
    expect(polluted()).toEqual([])
    expect(typeof Object.prototype.toString).toBe('function')
  })

  it('config layers (presets) do not merge a __proto__ key', () => {
    const merged = mergeLayers({ port: 1 }, JSON.parse('{"__proto__": {"polluted": "yes", "api-keys": ["injected"]}, "host": "h"}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
    expect(merged).toEqual({ port: 1, host: 'h' })
    expect(merged['api-keys']).toBeUndefined()
  })
})

describe('client JSON', () => {
  let proxy: TestProxy
  beforeAll(async () => {
    proxy = await startTestProxy({ 'api-keys': ['k'], 'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: [{ name: 'mock-claude', alias: 'm' }] }] })
  })
  afterAll(() => proxy.close())

  it.each([
    ['chat', '/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }],
    ['generateContent', '/v1beta/models/m:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 0.5 } }],
  ] as const)('a __proto__ key in a %s body is not merged into what goes upstream', async (_name, path, base) => {
    // Built as text: an object literal's __proto__ would set the prototype instead of a key.
    const text = JSON.stringify(base).replace(/^\{/, '{"__proto__": {"polluted": "yes", "system": "injected system prompt", "max_tokens": 1},')
      .replace('"generationConfig":{', '"generationConfig":{"__proto__": {"polluted": "yes"},')
    const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: text })
    expect(response.status, await response.clone().text()).toBe(200)
    const sent = upstream.requests.at(-1)!.body
    expect(sent).not.toContain('polluted')
    expect(sent).not.toContain('injected system prompt')
    expect(JSON.parse(sent).max_tokens).not.toBe(1)
    expect(polluted()).toEqual([])
  })
})

describe('management merges of client JSON', () => {
  it('a PATCH whose value carries __proto__ (or constructor/prototype) is refused and the file keeps its entry', async () => {
    const managed = await startManagedProxy(baseYaml)
    try {
      for (const field of ['__proto__', 'constructor', 'prototype']) {
        const before = managed.text()
        const patch = await fetch(`${managed.proxy.url}/v0/management/compat-provider`, {
          method: 'PATCH', headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
          body: `{"index": 0, "value": {"${field}": {"polluted": "yes", "base-url": "http://attacker.example/v1"}}}`,
        })
        expect(patch.status, field).toBe(400)
        expect((await patch.json()).error).toBe('invalid body')
        expect(managed.text()).toBe(before)
      }
      expect(polluted()).toEqual([])
    } finally {
      await managed.close()
    }
  })
})

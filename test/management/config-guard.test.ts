import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'

/**
 * Config writes that cannot destroy: a document that is not a mapping, or that fails validation, is
 * refused and the file stays byte for byte; entries refuse keys they do not have, naming the path; a
 * write changes only the lines of the values it changes (comments, flow style and spacing kept).
 */

const yaml = `${baseYaml}routing:
  strategy: round-robin # how credentials take turns
  rules:
    - { name: big, models: ["claude-*"], tokens-over: 100000, model: fast }
fallbacks:
  fast: [ "mock-gpt" ]   # odd spacing, kept
payload:
  default:
    - models: [{ name: "gpt-*" }]
      params: { "temperature": 0.2 }
`

let managed: ManagedProxy
/** The file as the proxy keeps it once started (the secret is stored hashed): what a refused write leaves. */
let started: string
beforeEach(async () => {
  managed = await startManagedProxy(yaml)
  started = managed.text()
})
afterEach(() => managed.close())

const call = (method: string, path: string, body?: unknown, type = 'application/json') => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method,
  headers: { authorization: `Bearer ${managementSecret}`, 'content-type': type },
  body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
})
const putYaml = async (text: string) => {
  const response = await call('PUT', '/config.yaml', text, 'application/yaml')
  return { status: response.status, body: await response.json() }
}

describe('PUT /config.yaml refuses what would wipe the config', () => {
  it.each([':::', '', '~', '- a\n- b\n', '42', 'just some text', '"quoted"', '# only a comment\n'])('%j: refused, the file unchanged, management still open', async (text) => {
    const result = await putYaml(text)
    expect(result.status).toBe(400)
    expect(['invalid_yaml', 'invalid_config']).toContain(result.body.error)
    expect(result.body.message).toEqual(expect.any(String))
    expect(managed.text()).toBe(started)
    const config = await call('GET', '/config')
    expect(config.status).toBe(200)
    expect((await config.json())['remote-management']['secret-key']).toBeTruthy()
  })

  it('an unknown top-level key is named', async () => {
    const result = await putYaml(`${yaml}routng: { strategy: fill-first }\n`)
    expect(result).toEqual({ status: 400, body: { error: 'invalid_config', message: expect.stringContaining('routng: unknown key') } })
    expect(managed.text()).toBe(started)
  })
})

describe('entries refuse keys they do not have, with the path', () => {
  const cases: Array<[string, string, string]> = [
    ['a routing rule with its conditions under `when:`', yaml.replace('- { name: big, models: ["claude-*"], tokens-over: 100000, model: fast }', '- { name: big, when: { models: ["claude-*"] }, model: fast }'), 'routing.rules[0]'],
    ['a provider entry', yaml.replace('      - api-key: up-1', '      - api-key: up-1\n        apikey: typo'), 'compat-provider[0].api-key-entries[0]'],
    ['a provider model', yaml.replace('        alias: fast', '        alias: fast\n        alais: typo'), 'compat-provider[0].models[0]'],
    ['a compat provider', yaml.replace('  - name: mock\n', '  - name: mock\n    base_url: http://x\n'), 'compat-provider[0]'],
    ['a family key entry', `${yaml}beta-api-key:\n  - { api-key: k, base-url: "http://127.0.0.1:9", modles: [] }\n`, 'beta-api-key[0]'],
    ['a payload rule', yaml.replace('      params: { "temperature": 0.2 }', '      params: { "temperature": 0.2 }\n      when: x'), 'payload.default[0]'],
    ['a payload model', yaml.replace('[{ name: "gpt-*" }]', '[{ name: "gpt-*", protocl: proto_chat }]'), 'payload.default[0].models[0]'],
    ['an alias entry', `${yaml}oauth-model-alias:\n  alpha:\n    - { name: a, alias: b, forked: true }\n`, 'oauth-model-alias.alpha[0]'],
    ['a client key', `${yaml}client-keys:\n  - { key: k-1, name: one, rate: 5 }\n`, 'client-keys[0]'],
    ['a fallback', yaml.replace('fast: [ "mock-gpt" ]', 'fast: [ { model: "mock-gpt" } ]'), 'fallbacks.fast[0]'],
  ]
  it.each(cases.map(([name, text, path]) => ({ name, text, path })))('$name: invalid_config naming $path, nothing written', async ({ text, path }) => {
    const result = await putYaml(text)
    expect(result.status).toBe(400)
    expect(result.body.error).toBe('invalid_config')
    expect(result.body.message).toContain(path)
    expect(managed.text()).toBe(started)
  })

  it('a full write of the same keys is accepted (nothing real is refused)', async () => {
    const result = await putYaml(started.replace('request-retry: 3', 'request-retry: 4'))
    expect(result.status).toBe(200)
  })
})

describe('a management write changes only its own lines', () => {
  const changedLines = (before: string, after: string) => {
    const a = before.split('\n')
    const b = after.split('\n')
    expect(b.length).toBe(a.length)
    return a.flatMap((line, i) => line === b[i] ? [] : [`${line} -> ${b[i]}`])
  }

  it('a scalar field: one line, byte for byte elsewhere (comments, flow lists, spacing)', async () => {
    // The start-up write (the plain secret replaced by its hash) changed that line alone.
    expect(changedLines(yaml, started)).toEqual([`  secret-key: ${managementSecret} -> ${started.split('\n').find(line => line.startsWith('  secret-key: '))}`])
    expect((await call('PUT', '/request-retry', { value: 5 })).status).toBe(200)
    expect(changedLines(started, managed.text())).toEqual(['request-retry: 3 -> request-retry: 5'])
    expect((await call('PUT', '/routing/strategy', { value: 'fill-first' })).status).toBe(200)
    expect(changedLines(started, managed.text())).toEqual(['request-retry: 3 -> request-retry: 5', '  strategy: round-robin # how credentials take turns ->   strategy: fill-first # how credentials take turns'])
  })

  it('a list entry edited through PATCH: only that entry\'s lines', async () => {
    const list = await (await call('GET', '/compat-provider')).json()
    const entry = (list['compat-provider'] ?? list)[0]
    expect((await call('PATCH', '/compat-provider', { name: 'mock', value: { ...entry, prefix: 'team' } })).status).toBe(200)
    const text = managed.text()
    const before = started.split('\n')
    const after = text.split('\n')
    // Every line outside the entry is the same; the entry gained its one line.
    expect(after.filter(line => !before.includes(line))).toEqual(['    prefix: team'])
    expect(before.filter(line => !after.includes(line))).toEqual([])
  })
})

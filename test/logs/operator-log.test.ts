import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startQuotaLimitedUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

/**
 * Issue 19.4: main.log as an operator reads it. Two instances started in one working directory, with
 * the default logs folder: each has its own main.log, every line names its instance; attempts, retries,
 * cooldowns and failovers show with credential ids (never a secret); wrong client keys, failed
 * management logins and bans are warnings, rate-limited; a management change names what it changed;
 * start and shutdown are there.
 */
const secret = 'log-admin-secret'
const quotaKey = 'sk-upstream-quota-0123456789abcdef'
const okKey = 'sk-upstream-ok-0123456789abcdef'
const fakeAddress = fileURLToPath(new URL('../partner/fake-address-plugin.ts', import.meta.url))
let upstream: MockUpstream
let dir: string
let first: CliProcess
let second: CliProcess

beforeAll(async () => {
  upstream = await startQuotaLimitedUpstream(quotaKey, 120)
  dir = mkdtempSync(join(tmpdir(), 'proxy-oplog-'))
  writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', plugins: ['${fakeAddress}'] }\n`)
  writeFileSync(join(dir, 'config.yaml'), [
    'host: 127.0.0.1',
    'api-keys: [client-key-0123456789]',
    'logging-to-file: true',
    'routing: { strategy: fill-first }',
    'quota-exceeded: { switch-project: true, switch-preview-model: false }',
    `remote-management: { allow-remote: true, secret-key: '${secret}' }`,
    'compat-provider:',
    `  - { name: pool, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: ${quotaKey} }, { api-key: ${okKey} }], models: [{ name: mock-gpt, alias: m }] }`,
    '',
  ].join('\n'))
  first = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
  await first.url
  second = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
  await second.url
}, 30_000)
afterAll(async () => {
  await first?.kill('SIGKILL')
  await second?.kill('SIGKILL')
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
})

const lines = (path: string) => existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []

describe('an operator\'s main.log', () => {
  it('records what happened, per instance, without secrets', async () => {
    const url = await first.url
    const firstId = /as instance (\S+)/.exec(first.output())![1]!
    const secondId = /as instance (\S+)/.exec(second.output())![1]!
    expect(firstId).not.toBe(secondId)

    // A request that meets a 429 on the first credential, cools it down and fails over to the second.
    const chat = (key: string) => fetch(`${url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect((await chat('client-key-0123456789')).status).toBe(200)
    // Fifteen wrong client keys: at most ten lines a minute of that kind.
    for (let i = 0; i < 15; i++) expect((await chat(`wrong-client-key-abcdefgh-${String(i).padStart(4, '0')}`)).status).toBe(401)
    // Failed management logins from a remote address, the fifth bans it.
    const remote = { 'x-test-client-ip': '198.51.100.77', authorization: 'Bearer not-the-secret' }
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}/v0/management/debug`, { headers: remote })).status).toBe(401)
    // A management change.
    expect((await fetch(`${url}/v0/management/request-retry`, { method: 'PUT', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ value: 2 }) })).status).toBe(200)
    expect(await first.kill('SIGTERM')).toBe(0)

    const log = lines(join(dir, 'logs', 'main.log'))
    const text = log.join('\n')
    for (const line of log) expect(line).toMatch(new RegExp(`^\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\] (INFO|DEBUG|WARN|ERROR): \\[${firstId}\\] `))
    expect(text).toMatch(/INFO: \S+ listening on http:\/\/127\.0\.0\.1:\d+ as instance/)
    expect(text).toMatch(/INFO: \S+ cooldown: compat:pool:0\.0 for mock-gpt until \S+ \(quota error 429, failure 1 in a row\)/)
    expect(text).toMatch(/INFO: \S+ attempt 1 of \S+ \(model m\) via compat:pool:0\.0 -> mock-gpt failed: status 429: quota exceeded \(Retry-After 120s\); retrying/)
    expect(text).toMatch(/INFO: \S+ failover of \S+: compat:pool:0\.0 -> compat:pool:0\.1/)
    expect(log.filter(line => line.includes('WARN') && line.includes('client refused: unknown key'))).toHaveLength(10)
    expect(text).toMatch(/WARN: \S+ management login failed from 198\.51\.100\.77: wrong key/)
    expect(text).toMatch(/WARN: \S+ management: 198\.51\.100\.77 banned for 30 minutes after 5 failed logins/)
    expect(text).toMatch(/INFO: \S+ config changed by PUT \/v0\/management\/request-retry from 127\.0\.0\.1: request-retry/)
    expect(text).toMatch(/INFO: \S+ SIGTERM: shutting down/)
    for (const secretText of [quotaKey, okKey, secret, 'client-key-0123456789', 'wrong-client-key-abcdefgh-0003']) expect(text).not.toContain(secretText)

    // The second instance of this working directory writes beside it, in its own folder.
    expect(readdirSync(join(dir, 'logs'))).toContain(secondId)
    await second.kill('SIGTERM')
    const secondLog = lines(join(dir, 'logs', secondId, 'main.log'))
    expect(secondLog.length).toBeGreaterThan(0)
    for (const line of secondLog) expect(line).toContain(`[${secondId}] `)
  }, 30_000)
})

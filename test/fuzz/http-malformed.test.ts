import { connect } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

/**
 * 10,000 malformed requests over raw sockets against a real proxy process: bad JSON, wrong content
 * types, huge headers, truncated and cut-off chunked bodies, invalid UTF-8, wrong methods, absurd paths,
 * bytes that are not HTTP at all. Afterwards the process still serves, never answered 500, and its memory
 * is back near where it started.
 */

const total = Number(process.env.HTTP_FUZZ_REQUESTS ?? 10_000)
const concurrency = 64

let upstream: MockUpstream
let dir: string
let cli: CliProcess
let host: string
let port: number
beforeAll(async () => {
  const { openaiMock } = await import('../../playground/mock-upstream/openai.ts')
  upstream = await startMockUpstream(openaiMock)
  dir = mkdtempSync(join(tmpdir(), 'proxy-http-fuzz-'))
  writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\ncompat-provider: [{ name: mock, base-url: '${upstream.url}/v1', models: [{ name: mock-gpt, alias: m }] }]\n`)
  cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir)
  const url = new URL(await cli.url)
  host = url.hostname
  port = Number(url.port)
})
afterAll(async () => {
  await cli?.kill('SIGKILL')
  await upstream?.close()
  rmSync(dir, { recursive: true, force: true })
})

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

/** Seeded PRNG (mulberry32): the same run every time. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const paths = ['/v1/chat/completions', '/v1/completions', '/v1/messages', '/v1/messages/count_tokens', '/v1/responses', '/v1/responses/compact', '/v1beta/models/m:generateContent', '/v1beta/models/m:streamGenerateContent', '/v1/models', '/v0/management/config', '/healthz']
const absurdPaths = ['/v1beta/models/%zz:generateContent', '/v1beta/models/%E0%A4%A:generateContent', '/v1beta/models/%:countTokens', '/v1/chat/completions/../../../etc/passwd', '//v1//chat///completions', `/v1/${'a'.repeat(9000)}`, '/v1beta/models/:generateContent', '/v1beta/models/m:', '/%00', '/v1/chat/completions?%zz=%zz&&&=', '/v1beta/models/m:generateContent?alt=%zz', '*', '/\u00e9\u00e8', '/v1/ws', '/v1beta/models/%2F..%2F:generateContent']
const methods = ['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'BREW', 'TRACE', 'CONNECT', 'post']
const auth = 'authorization: Bearer k\r\n'

/** One malformed request as raw bytes, and whether we close the socket right after sending it. */
function malformed(rand: () => number): { bytes: Buffer; hangUp: boolean } {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!
  const path = pick(paths)
  const request = (head: string, body: Buffer | string = '') => Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)])
  const withBody = (body: Buffer | string, type = 'application/json', method = 'POST', target = path) => request(`${method} ${target} HTTP/1.1\r\nhost: x\r\n${auth}content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`, body)
  switch (Math.floor(rand() * 10)) {
    case 0: return { bytes: withBody(pick(['{', '{"model":', '[1,2', '{"model":"m","messages":[{"role":"user","content":"x"}]', 'null', '"str"', '{"model":"m","messages":{}}', '{"model":1e999}', '\u0000\u0001'])), hangUp: false }
    case 1: return { bytes: withBody('{"model":"m","messages":[{"role":"user","content":"x"}]}', pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset=utf-16', ';;;'])), hangUp: false }
    case 2: return { bytes: request(`POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}x-huge: ${'h'.repeat(8_000 + Math.floor(rand() * 40_000))}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`), hangUp: false }
    case 3: return { bytes: request(`POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\ncontent-length: ${100 + Math.floor(rand() * 10_000)}\r\n\r\n`, '{"model":"m","messages":[{"ro'), hangUp: true }
    case 4: {
      const bad = Buffer.from([0x7b, 0x22, 0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])
      return { bytes: rand() < 0.5 ? withBody(bad) : request(`POST /v1beta/models/\xff\xfe:generateContent HTTP/1.1\r\nhost: x\r\n${auth}content-length: 2\r\nconnection: close\r\n\r\n{}`), hangUp: false }
    }
    case 5: return { bytes: withBody('{}', 'application/json', pick(methods)), hangUp: false }
    case 6: return { bytes: withBody('{"model":"m","contents":[]}', 'application/json', pick(['POST', 'GET']), pick(absurdPaths)), hangUp: false }
    case 7: return { bytes: request(`POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, pick(['10\r\n{"model":"m","me\r\n', 'zz\r\n', '5\r\n{"a":', 'ffffffffff\r\n{'])), hangUp: true }
    case 8: return { bytes: Buffer.from(pick(['GARBAGE\r\n\r\n', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 'GET / HTTP/9.9\r\n\r\n', 'POST /v1/chat/completions HTTP/1.1\r\ncontent-length: -1\r\n\r\n', 'POST /v1/chat/completions HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n{}', 'GET /healthz HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n']), 'latin1'), hangUp: false }
    default: return { bytes: withBody(`{"model":"m","messages":[{"role":"user","content":${JSON.stringify('x'.repeat(Math.floor(rand() * 2000)))}}],"stream":"yes"}`), hangUp: false }
  }
}

/** Send raw bytes; resolve with the status code of the answer (0 = none), never after 3 s. */
function send(bytes: Buffer, hangUp: boolean): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, host)
    let head = ''
    const done = (status: number) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(status)
    }
    const timer = setTimeout(() => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)), 3000)
    socket.on('error', () => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)))
    socket.on('data', (chunk) => { if (head.length < 64) head += chunk.toString('latin1') })
    socket.on('close', () => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)))
    socket.write(bytes, () => { if (hangUp) setTimeout(() => done(0), 5) })
  })
}

const validChat = (stream = false) => fetch(`http://${host}:${port}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'still there?' }] }),
})

describe('HTTP fuzz run against a spawned proxy', () => {
  it(`survives ${total} malformed requests: no 500, still serving, memory near its start`, async () => {
    const pid = cli.child.pid!
    const rand = random(12)
    const statuses = new Map<number, number>()
    const run = async (count: number) => {
      let next = 0
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++
          const { bytes, hangUp } = malformed(rand)
          const status = await send(bytes, hangUp)
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
        }
      }))
    }
    // Warm up (JIT, pools, the heap grown to its working size) before the baseline: what is measured is
    // growth under the same load, not the first touch of memory.
    for (let i = 0; i < 200; i++) expect((await validChat(i % 2 === 0)).status).toBe(200)
    await run(2000)
    await new Promise(resolve => setTimeout(resolve, 1000))
    const before = rssKb(pid)
    await run(total)

    expect(statuses.get(500) ?? 0, JSON.stringify([...statuses])).toBe(0)
    expect([...statuses.keys()].filter(status => status >= 500 && status !== 503)).toEqual([])
    expect(cli.child.exitCode).toBeNull()
    const response = await validChat()
    expect(response.status).toBe(200)
    expect((await response.json()).choices[0].message.content).toContain('still there?')
    expect(await (await validChat(true)).text()).toContain('[DONE]')

    // Let the heap settle: the lowest of a few samples over 3 s.
    let after = Number.POSITIVE_INFINITY
    for (let i = 0; i < 6; i++) {
      await new Promise(resolve => setTimeout(resolve, 500))
      after = Math.min(after, rssKb(pid))
    }
    if (process.env.FUZZ_DEBUG) console.log(`RSS ${before} kB -> ${after} kB`, [...statuses])
    expect(after, `RSS ${before} kB -> ${after} kB`).toBeLessThan(before * 1.5)
  }, 120_000)
})

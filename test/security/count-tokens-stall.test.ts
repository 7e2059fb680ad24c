import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countTokens } from 'gpt-tokenizer'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { countingPieces } from '../../core/canonical/count-pieces.ts'

/**
 * Issue 18.5: token counting must not stall the event loop. A 60 KB "word" (a run of one letter, of
 * spaces, of CJK characters) took seconds of synchronous BPE merging and /healthz waited that long; the
 * first count loaded the tokenizer's tables on the event loop too. Counting now runs on its own thread,
 * piece by piece, in time linear in the text.
 */

let dir: string
let cli: CliProcess
let url: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-count-'))
  writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\nmax-request-body-mb: 8\ncompat-provider: [{ name: x, base-url: 'http://127.0.0.1:9/v1', models: [{ name: m, alias: m }] }]\n`)
  cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir)
  url = await cli.url
})
afterAll(async () => {
  await cli?.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

const english = 'The quick brown fox jumps over the lazy dog, reading "docs" about proxies (v2.1).\n  Next line\twith a tab. '
const texts: Array<[string, string]> = [
  ['the first count (tables load)', 'hello there'],
  ['60 KB of one letter', 'a'.repeat(60_000)],
  ['60 KB of spaces', `x${' '.repeat(60_000)}y`],
  ['60 KB of CJK without spaces', '漢字かなカナ한국어'.repeat(2000)],
  ['1 MB of one letter', 'a'.repeat(1_000_000)],
  ['1 MB of prose', english.repeat(Math.ceil(1_000_000 / english.length))],
]

/** The slowest /healthz answer while `work` runs (polled back to back). */
async function worstHealthz<T>(work: Promise<T>): Promise<{ result: T; worstMs: number }> {
  let done = false
  let worstMs = 0
  const poll = (async () => {
    while (!done) {
      const started = performance.now()
      await fetch(`${url}/healthz`)
      worstMs = Math.max(worstMs, performance.now() - started)
      await new Promise(resolve => setTimeout(resolve, 5))
    }
  })()
  const result = await work.finally(() => { done = true })
  await poll
  return { result, worstMs }
}

const countTokensCall = (text: string) => fetch(`${url}/v1/messages/count_tokens`, {
  method: 'POST', headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] }), signal: AbortSignal.timeout(60_000),
}).then(async response => ({ status: response.status, body: await response.json() as { input_tokens: number } }))

describe('count_tokens does not stall the event loop', () => {
  // Before: 2-3 s per 60 KB case (18 s for CJK), the 1 MB letter run never finished. Now a few ms
  // of parsing on the event loop; the bound is loose so a busy machine does not fail it.
  it.each(texts)('%s: /healthz keeps answering within a second', async (_name, text) => {
    const { result, worstMs } = await worstHealthz(countTokensCall(text))
    expect(result.status).toBe(200)
    expect(result.body.input_tokens).toBeGreaterThan(0)
    expect(worstMs).toBeLessThan(1000)
  }, 90_000)

  it('counts stay exact for ordinary text (prose, code, JSON) and near for the pathological', async () => {
    const code = 'function add(a, b) {\n    return a + b; // sum\n}\n\nconst table = {"k": [1, 2, 3], "s": "two words"};\n'
    const json = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['x y', 'z'] })))
    for (const text of [english.repeat(300), code.repeat(300), json, 'héllo wörld 😀 '.repeat(500)]) {
      const { body } = await countTokensCall(text)
      expect(body.input_tokens).toBe(countTokens(text) + 3)
    }
    // A run of one letter cut every 256 characters: off by a fraction of a percent at most.
    const run = 'a'.repeat(6000)
    const { body } = await countTokensCall(run)
    expect(Math.abs(body.input_tokens - 3 - countTokens(run))).toBeLessThanOrEqual(Math.ceil(run.length / 256))
  }, 60_000)
})

describe('countingPieces', () => {
  it.each([
    ['empty', ''],
    ['one word', 'hello'],
    ['prose', english.repeat(200)],
    ['a long run', 'b'.repeat(5000)],
    ['spaces then text', `${' '.repeat(3000)}end`],
    ['surrogate pairs in a run', '😀'.repeat(3000)],
  ])('%s: the pieces put back together are the text, none a long run', (_name, text) => {
    const pieces = [...countingPieces(text, { maxRun: 256, batch: 1024 })]
    expect(pieces.join('')).toBe(text)
    for (const piece of pieces) {
      expect(piece.length).toBeGreaterThan(0)
      // Never half a surrogate pair at either end.
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(piece)).toBe(false)
      const longestRun = Math.max(0, ...piece.split(/(?<=\S) /).map(part => part.length))
      expect(longestRun).toBeLessThanOrEqual(1024 + 256)
    }
  })
})

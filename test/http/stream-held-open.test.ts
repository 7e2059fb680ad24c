import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientCall, clientHeaders, streamCompleted, streamErrorEnding, type ClientFormat } from '../helpers/client-formats.ts'
import { scriptPrompt, startScriptedUpstream, type Script, type ScriptedUpstream } from '../helpers/scripted-usage-upstream.ts'
import { eventually } from '../recorder/helpers.ts'
import { endGraceMs } from '../../core/pipeline/stream.ts'

/**
 * An upstream that sends its answer's last event (`[DONE]`, `message_stop`, `response.completed` or
 * `response.incomplete`, an error event) and then keeps the connection open: the client's answer ends
 * at once, whole, as the upstream's own end would have ended it (the same outcome, usage and usage
 * record), on the same-format path and the translated one, and the proxy lets the upstream go. The
 * idle timeout is far longer than the test waits, so only the last event can end these answers.
 */
const secret = 'held-open-admin'
const counts = { input: 1000, output: 50, cacheRead: 600, cacheWrite: 0, reasoning: 20 }
let upstream: ScriptedUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startScriptedUpstream()
  const models = (family: string) => [{ name: `up-${family}`, alias: `m-${family}` }, { name: `m-${family}-same` }]
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    timeouts: { 'stream-idle-seconds': 60 },
    'compat-provider': [{ name: 'p', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'c' }], models: models('compat') }],
    'beta-api-key': [{ 'api-key': 'b', 'base-url': upstream.url, models: models('beta') }],
    'gamma-api-key': [{ 'api-key': 'g', 'base-url': `${upstream.url}/v1`, models: models('gamma') }],
    'alpha-api-key': [{ 'api-key': 'a', 'base-url': upstream.url, models: models('alpha') }],
  })
})
afterAll(async () => { await proxy?.close(); await upstream?.close() })

/** Streams one request; what the client read, how long its answer took to end, and its usage record. */
async function streamed(client: ClientFormat, model: string, script: Script) {
  const { path, body } = clientCall(client, model, true, scriptPrompt(script))
  const started = performance.now()
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { ...clientHeaders('k'), 'x-request-id': script.id }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) })
  const text = await response.text()
  const ms = performance.now() - started
  const record = await eventually(async () => {
    const response = await fetch(`${proxy.url}/v0/management/usage/export`, { headers: { authorization: `Bearer ${secret}` } })
    return ((await response.json()) as { records: Array<Record<string, unknown>> }).records.find(record => record.id === script.id)
  })
  const { status, inputTokens, outputTokens, cachedTokens, reasoningTokens, estimated, broken } = record
  return { status: response.status, text, ms, record: { status, inputTokens, outputTokens, cachedTokens, reasoningTokens, estimated, broken } }
}

/** The answer with the ids and times a translation makes up anew for every answer written the same. */
const anyIds = (text: string) => text.replace(/"(id|created|created_at|item_id|responseId)":("[^"]*"|\d+)/g, '"$1":_')

type Ending = 'whole' | 'error' | 'incomplete'
/** Each upstream family with a client of its own format (same-format) and of another one (translated). */
const routes: Array<[string, ClientFormat, string]> = [
  ['compat', 'chat', 'm-compat-same'], ['compat', 'messages', 'm-compat'], ['compat', 'generate-sse', 'm-compat'],
  ['beta', 'messages', 'm-beta-same'], ['beta', 'chat', 'm-beta'],
  ['gamma', 'responses', 'm-gamma-same'], ['gamma', 'chat', 'm-gamma'],
  ['alpha', 'generate-sse', 'm-alpha-same'], ['alpha', 'chat', 'm-alpha'],
]
/** generateContent has no last event but an error: its whole answers end with the upstream (below). */
const endings = (family: string): Ending[] => family === 'alpha' ? ['error'] : family === 'gamma' ? ['whole', 'error', 'incomplete'] : ['whole', 'error']
const cases = routes.flatMap(([family, client, model]) => endings(family).map(ending => ({ family, client, model, ending })))

describe('an upstream that keeps its connection open after its last event', () => {
  it.each(cases)('$family upstream, $client client ($model), $ending: ends at once, as the upstream\'s end would have', async ({ family, client, model, ending }) => {
    // Prompts of one length (`-e1234` and 0 against `-h` and 30000): an estimate, made from the prompt, is the same.
    const script = (id: string, holdOpenMs: number): Script => ({ id, usage: counts, style: 'last', midError: ending === 'error', incomplete: ending === 'incomplete', holdOpenMs })
    const name = `${model}-${client}-${ending}`
    const ended = await streamed(client, model, script(`${name}-e1234`, 0))
    const held = await streamed(client, model, script(`${name}-h`, 30_000))
    expect(held.status).toBe(200)
    expect(held.ms, name).toBeLessThan(1000)
    // After a grace for its end (endGraceMs), long before it would have ended it.
    await eventually(async () => upstream.letGoWhileHeld.has(`${name}-h`) || undefined, endGraceMs + 2000)
    // The same answer and record as when the upstream ended its answer itself.
    expect(anyIds(held.text)).toBe(anyIds(ended.text))
    expect(held.record).toEqual(ended.record)
    if (ending === 'whole') expect(streamCompleted(client, held.text), held.text).toBeUndefined()
    // A same-format answer is the upstream's own error event; a translated one ends with the client format's.
    if (ending === 'error' && !model.endsWith('-same')) expect(streamErrorEnding(client, held.text), held.text).toBeUndefined()
    // The messages format has no reasoning count.
    if (ending !== 'error') expect(held.record).toMatchObject({ status: 200, inputTokens: counts.input, outputTokens: counts.output, cachedTokens: counts.cacheRead, reasoningTokens: family === 'beta' ? 0 : counts.reasoning })
  })

  it.each(routes.filter(([family]) => family !== 'alpha'))('%s upstream, %s client (%s): an upstream that ends its response with its last event keeps its connection, reused by the next answer', async (_family, client, model) => {
    const before = upstream.connections
    // Its end written apart from the last event: it reaches the proxy after the client's answer has ended
    // (the next request waits for it, or it would find the connection still busy).
    for (const n of [1, 2, 3]) {
      await streamed(client, model, { id: `${model}-${client}-reuse-${n}`, usage: counts, style: 'last', endDelayMs: 50 })
      await new Promise(resolve => setTimeout(resolve, 200))
    }
    // One connection at most for the three (none when the pool held one already).
    expect(upstream.connections - before).toBeLessThanOrEqual(1)
  })

  it.each([['generate-sse', 'm-alpha-same'], ['chat', 'm-alpha']] as Array<[ClientFormat, string]>)('generateContent upstream, %s client (%s): a finish reason is no last event (more chunks may follow), the answer ends with the upstream', async (client, model) => {
    const held = await streamed(client, model, { id: `${model}-${client}-whole`, usage: counts, style: 'last', holdOpenMs: 1000 })
    expect(held.ms).toBeGreaterThanOrEqual(1000)
    expect(streamCompleted(client, held.text), held.text).toBeUndefined()
    expect(held.record).toMatchObject({ status: 200, inputTokens: counts.input, outputTokens: counts.output, cachedTokens: counts.cacheRead, reasoningTokens: counts.reasoning })
  })
})

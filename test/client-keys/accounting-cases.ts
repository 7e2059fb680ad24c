import fc from 'fast-check'
import type { ClientFormat } from '../helpers/client-formats.ts'
import { part, type Counts, type Script, type ScriptFamily } from '../helpers/scripted-usage-upstream.ts'
import { costOf } from './settlement-prices.ts'

/**
 * One request of the accounting probe, and what every view must say of it, computed from what the
 * scripted upstream sends (never read back from the proxy). `end`: `whole`; `cut` (the upstream closes
 * after two texts); `error` (the upstream's error event after two texts); `leave` (the client goes after two texts); `left-after-end` (it goes once the terminal event came, the upstream's connection still open); `gone` (the client goes before
 * its answer began); `failover` (the first credential fails
 * before any byte, the second answers); `fail` (every credential fails); `refused` (a 400, no failover); `not-allowed` (a model the key may not use: refused before any attempt).
 */
export type End = 'whole' | 'cut' | 'error' | 'leave' | 'left-after-end' | 'gone' | 'failover' | 'fail' | 'refused' | 'not-allowed'
export interface Case {
  client: ClientFormat; family: ScriptFamily; stream: boolean; usage: Counts | null; style: Script['style']; end: End
  failStatus: number; failKind: NonNullable<Script['failKind']>
  /** A chat stream's `stream_options.include_usage` (absent: undefined; false asks for none as absent does). */
  askUsage: boolean | undefined
  /** Zero counts left out or null (see the upstream); generateContent's share of the prompt from tools. */
  sparse: boolean; toolUse: number
  /** A responses upstream ends with response.incomplete. */
  incomplete: boolean
}

export const clientFormats: ClientFormat[] = ['chat', 'completions', 'messages', 'responses', 'generate-sse', 'generate-array']
export const families: ScriptFamily[] = ['compat', 'beta', 'gamma', 'alpha', 'delta']

const small = fc.oneof(fc.constant(0), fc.nat({ max: 4000 }))
/** What a family can report: cache writes only on messages, reasoning on every other. */
const countsOf = (family: ScriptFamily) => fc.tuple(small, small, small, small, small).map(([a, b, c, d, e]): Counts => {
  const input = a
  const cacheRead = Math.min(b, input)
  const cacheWrite = family === 'beta' ? Math.min(c, input - cacheRead) : 0
  const output = d % 1000
  const reasoning = family === 'beta' ? 0 : Math.min(e % 500, output)
  return { input, output, cacheRead, cacheWrite, reasoning }
})

export const caseArb: fc.Arbitrary<Case> = fc.record({
  client: fc.constantFrom(...clientFormats),
  family: fc.constantFrom(...families),
  stream: fc.boolean(),
  style: fc.constantFrom<Script['style']>('last', 'running', 'early', 'trailing'),
  failKind: fc.constantFrom<Case['failKind']>('status', 'empty', 'error-event'),
  askUsage: fc.constantFrom(undefined, true, false),
  sparse: fc.boolean(),
  toolUse: fc.oneof(fc.constant(0), fc.nat({ max: 300 })),
  end: fc.constantFrom<End>('whole', 'whole', 'cut', 'error', 'leave', 'left-after-end', 'gone', 'failover', 'fail', 'refused', 'not-allowed'),
  incomplete: fc.boolean(),
  failStatus: fc.constantFrom(500, 503),
  reported: fc.nat({ max: 4 }),
}).chain(base => countsOf(base.family).map(counts => {
  const { reported, ...rest } = base
  // generate-array is always a stream; a non-stream answer cannot be cut or left mid-way.
  const stream = rest.client === 'generate-array' || rest.stream
  const end = !stream && (rest.end === 'error' || rest.end === 'leave' || rest.end === 'left-after-end') ? 'whole' : rest.end
  const failKind = rest.failKind
  return { ...rest, stream, end, failKind, incomplete: rest.incomplete && rest.family === 'gamma', askUsage: stream && rest.client === 'chat' ? rest.askUsage : undefined, usage: reported ? counts : null }
}))

export const modelOf = (family: ScriptFamily) => `m-${family}`
/** Served (by compat), but no client key may use it. */
export const forbiddenModel = 'm-other'

/** What a client reads as its stream's end: it leaves there (`left-after-end`). */
export const terminalMarker: Record<ClientFormat, string> = {
  chat: '[DONE]', completions: '[DONE]', messages: 'message_stop', responses: 'response.completed', 'generate-sse': 'finishReason', 'generate-array': 'finishReason',
}

export function scriptOf(c: Case, id: string): Script {
  // `gone` after a failover too: the second attempt is the one the client leaves.
  const fail = c.end === 'failover' || c.end === 'refused' || (c.end === 'gone' && c.failKind === 'status') ? 1 : c.end === 'fail' ? 9 : 0
  const refused = c.end === 'refused'
  // `gone` from a stream also after its 200, before its first event.
  const afterHeaders = c.end === 'gone' && c.stream && c.failKind === 'error-event'
  return {
    id, usage: c.usage, style: c.style, cut: c.end === 'cut', midError: c.end === 'error', incomplete: c.incomplete, slowMs: c.end === 'leave' ? 30 : undefined, holdMs: c.end === 'gone' && !afterHeaders ? 400 : undefined, firstEventDelayMs: afterHeaders ? 400 : undefined, holdOpenMs: c.end === 'left-after-end' ? 1000 : undefined,
    fail, failStatus: refused ? 400 : c.failStatus, failKind: refused ? 'status' : c.failKind, sparse: c.sparse, toolUse: c.family === 'alpha' || c.family === 'delta' ? c.toolUse : 0,
  }
}

/** What the views must hold of a request: exact counts when known, else only what an estimate promises. */
export interface Expected {
  /** The status `/usage`, the key, `/metrics` and the access log count (499: a stream that broke or was left; `client`: the one the client got, a 5xx). */
  status: number | 'client'
  estimated: boolean
  /** Exact counts and cost (a reported usage, or none at all for a failed request). */
  exact?: Counts & { cost: number }
  /** A stream that stopped early after the upstream reported its prompt: the estimate starts from it. */
  prompt?: { input: number; cacheRead: number; cacheWrite: number }
  /** The output the upstream had reported by then: an estimate is never less. */
  outputAtLeast?: number
}

const none: Counts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }

/** Whether the upstream reported the prompt before its second text (the point a cut or a leave stops at). */
function promptBeforeCut(c: Case): boolean {
  if (!c.usage) return false
  if (c.family === 'beta') return true
  // responses: none before the end, but a failed response reports what it was billed.
  if (c.family === 'gamma') return c.end === 'error'
  return c.style !== 'last'
}

export function expectedOf(c: Case): Expected {
  // A failed 200's status is its format's reading of the error (an empty 200 is a 502).
  if (c.end === 'fail') return { status: c.failKind === 'status' ? c.failStatus : 'client', estimated: false, exact: { ...none, cost: 0 } }
  if (c.end === 'refused') return { status: 400, estimated: false, exact: { ...none, cost: 0 } }
  if (c.end === 'not-allowed') return { status: 403, estimated: false, exact: { ...none, cost: 0 } }
  // Nothing came back before the client left: the prompt is charged as an estimate.
  if (c.end === 'gone') return { status: 499, estimated: true }
  // Half a whole answer, from every credential: a failed attempt each (a 502), nothing charged.
  if (c.end === 'cut' && !c.stream) return { status: 502, estimated: false, exact: { ...none, cost: 0 } }
  if (c.end === 'cut' || c.end === 'error' || c.end === 'leave') {
    const u = c.usage
    if (!promptBeforeCut(c) || !u) return { status: 499, estimated: true }
    // By the second text: running totals at 1/6 (chat) or 1/5 (generateContent), messages' message_start 1 (all when `early`).
    const soFar = c.style === 'early' || c.family === 'gamma' ? u.output : c.family === 'beta' ? Math.min(1, u.output) : part(u, 1 / (c.family === 'compat' ? 6 : 5)).output
    return { status: 499, estimated: true, prompt: { input: u.input, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite }, outputAtLeast: soFar }
  }
  if (!c.usage) return { status: 200, estimated: true }
  return { status: 200, estimated: false, exact: { ...c.usage, cost: costOf(c.usage) } }
}

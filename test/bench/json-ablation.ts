// What each speed-up of the JSON layer (core/json/) earns, in-process: the layer's own work for one request
// of the agent bench (a new last turn each time, as AB_VARY=last sends) with the piece on, and with it
// off, interleaved round by round, CPU µs per request (process.cpuUsage). Complements ab.ts, whose
// whole-process figures need a quiet machine to show a few percent.
//   node --import jiti/register test/bench/json-ablation.ts      (ABLATION_ROUNDS, ABLATION_REQUESTS;
//   ABLATION_ONLY=first: raw strings, every request a new client key; ABLATION_ONLY=perPlace: turns kept per place)
import { agentBody } from './proxy/agent-body.ts'
import { median } from './proxy/load.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { scanTopLevel } from '../../core/json/body-scan.ts'
import { maxJsonDepth } from '../../core/json/json-depth.ts'
import { parseByParts, wholeBytes } from '../../core/json/json-parts.ts'
import { TurnCache } from '../../core/json/turn-cache.ts'
import { RawStrings } from '../../core/json/raw-strings.ts'
import { jsonBytes } from '../../core/json/json-bytes.ts'
import { parseJsonObject } from '../../core/json/client-body.ts'

const rounds = Number(process.env.ABLATION_ROUNDS ?? 7)
const requests = Number(process.env.ABLATION_REQUESTS ?? 60)

/** Every long string of a body marked: another conversation (a subagent's), no part equal to the first one's. */
const other = (value: unknown): unknown => typeof value === 'string' ? value.length > 40 ? `sub: ${value}` : value
  : Array.isArray(value) ? value.map(other) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, other(v)])) : value

/** The agent bench's body with a new last turn per request. */
function turns(kb: number, model: string, subagent = false): () => Buffer {
  const body = (subagent ? other(agentBody(kb, model)) : agentBody(kb, model)) as Record<string, unknown>
  const text = JSON.stringify({ ...body, messages: [...body.messages as unknown[], { role: 'user', content: 'turn {{n}}' }] })
  const [head, tail] = text.split('{{n}}')
  let n = 0
  return () => Buffer.from(`${head}${n++}${tail}`)
}

interface Pieces { parsedCache: boolean; writtenCache: boolean; rawStrings: boolean; perPlace: number }
const all: Pieces = { parsedCache: true, writtenCache: true, rawStrings: true, perPlace: new TurnCache().perPlace }

/** One side's caches, fresh: each side warms its own, as a process of its own would. `first`: every request under a new client key (a session's first request, nothing cached for it). */
function side(pieces: Pieces, first = false) {
  let keys = 0
  const key = () => first ? `key-${keys++}` : 'key'
  const cache = new TurnCache(undefined, pieces.perPlace)
  const scan = (bytes: Buffer) => scanTopLevel(bytes, maxJsonDepth)
  return {
    /** Translated: scan, parse, decode, encode, write. */
    translated(bytes: Buffer) {
      const scope = key()
      const found = scan(bytes)!
      const strings = pieces.rawStrings && found.longStrings.length ? new RawStrings(bytes) : undefined
      const body = !pieces.rawStrings && bytes.length <= wholeBytes ? parseJsonObject(bytes, true)
        : parseByParts(bytes, found, wholeBytes, strings, pieces.parsedCache ? { cache, scope } : undefined)
      const encoded = chatCodec.request.encode(messagesCodec.request.decode(body))
      encoded.model = 'bench'
      jsonBytes(encoded, strings, pieces.writtenCache ? cache : undefined, scope)
    },
  }
}

function compare(label: string, kind: 'translated', next: () => Buffer, off: Partial<Pieces>, first = false) {
  const sides = [side(all, first), side({ ...all, ...off }, first)]
  const cpu: number[][] = [[], []]
  for (let round = -1; round < rounds; round++) {
    for (let s = 0; s < 2; s++) {
      const bodies = Array.from({ length: requests }, next)
      const before = process.cpuUsage()
      for (const bytes of bodies) sides[s]![kind](bytes)
      const used = process.cpuUsage(before)
      // Round -1 warms the JIT and the caches.
      if (round >= 0) cpu[s]!.push((used.user + used.system) / requests)
    }
  }
  const [on, without] = cpu.map(values => Math.round(median(values)))
  return { piece: label, bench: first ? `${kind}, first request` : kind, 'µs on': on, 'µs off': without, 'earns µs': without! - on! }
}

const translated80 = turns(80, 'bench')
/** An agent and its subagent under one key at once: their turns alternate. */
const agentAndSubagent = (() => { const agent = turns(80, 'bench'); const sub = turns(80, 'bench', true); let n = 0; return () => n++ % 2 ? sub() : agent() })()
const only = process.env.ABLATION_ONLY
console.table(only === 'perPlace' ? [
  compare('the last 4 turns per place, not 1: agent + subagent', 'translated', agentAndSubagent, { perPlace: 1 }),
  compare('the last 4 turns per place, not 2: agent + subagent', 'translated', agentAndSubagent, { perPlace: 2 }),
  compare('the last 4 turns per place, not 8: one agent', 'translated', translated80, { perPlace: 8 }),
] : only === 'first' ? [
  compare('raw strings', 'translated', translated80, { rawStrings: false }, true),
  compare('raw strings', 'translated', translated80, { rawStrings: false }),
] : [
  compare('last-turn cache, read side', 'translated', translated80, { parsedCache: false }),
  compare('last-turn cache, written side', 'translated', translated80, { writtenCache: false }),
  compare('last-turn cache, both sides', 'translated', translated80, { parsedCache: false, writtenCache: false }),
])

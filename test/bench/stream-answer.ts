// What handing a stream answer to the client costs per upstream chunk, in-process: a 200-event messages
// stream arriving as 200 chunks (a real upstream sends each token's event as it comes), through the
// same-format transform, into a sink. Node's own pipeline is the floor; the AnswerStream as the proxy
// sends it (srvx pipes a Node Readable into the socket); and the same with a hook that asked for the
// web stream (`ResponseContext.stream`: then the pipeline reads that web stream, a promise round per
// chunk, into the Node stream it pipes: core/pipeline/hooked-answer.ts).
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { AnswerStream } from '../../core/pipeline/stream.ts'
import type { StreamTransform } from '../../core/pipeline/stream-transform.ts'
import { StreamResponseContext } from '../../core/pipeline/stream-context.ts'
import { SocketPipe } from '../../core/edge/respond.ts'
import { HookedAnswer } from '../../core/pipeline/hooked-answer.ts'
import type { ProxyRequest } from '../../core/kernel/hooks.ts'

const event = Buffer.from('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hello "}}\n\n')
const events = 200

/** Bytes pass as they came (the same-format transform's work is measured elsewhere). */
class PassingTransform implements StreamTransform {
  primed = false
  complete = false
  usage = undefined
  delivered = 0
  push(chunk: Uint8Array) { this.primed = true; return chunk }
  end() { return undefined }
  fail() { return undefined }
  settle() { return false }
}

/** An upstream body: one event per turn of the event loop. */
const upstream = () => {
  let sent = 0
  return new Readable({ read() { setImmediate(() => this.push(sent++ < events ? event : null)) } })
}
const sink = () => new Writable({ write(_chunk, _encoding, done) { done() } })

async function answer(web: boolean): Promise<void> {
  const stream = new AnswerStream(upstream(), new PassingTransform())
  await stream.primed
  stream.start(() => {})
  const ctx = new StreamResponseContext({} as ProxyRequest, undefined, 200, {}, {}, stream)
  // As srvx sends it: the body's own pipe into the response; a hook that read `ctx.stream` puts a web stream between.
  const out = sink()
  new SocketPipe(web ? new HookedAnswer(ctx.stream!, stream, undefined, () => {}) : stream).pipe(out)
  return new Promise(resolve => out.once('finish', resolve))
}

const cases: Array<[string, () => Promise<void>]> = [
  ['Node stream.pipeline, upstream to sink (floor)', () => pipeline(upstream(), sink())],
  ['AnswerStream -> Node (as sent)', () => answer(false)],
  ['AnswerStream -> web stream (a hook read ctx.stream)', () => answer(true)],
]

export async function benchStreamAnswer(): Promise<Array<Record<string, string | number>>> {
  const streams = Number(process.env.BENCH_STREAMS ?? 300)
  const cpu: Record<string, number[]> = {}
  // Interleaved rounds, the first one a warm-up (JIT).
  for (let round = 0; round < 6; round++) {
    for (const [name, run] of cases) {
      const before = process.cpuUsage()
      for (let i = 0; i < streams; i++) await run()
      const used = process.cpuUsage(before)
      if (round) (cpu[name] ??= []).push((used.user + used.system) / streams)
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!
  const floor = median(cpu[cases[0]![0]]!)
  return cases.map(([name]) => {
    const micros = median(cpu[name]!)
    return { path: name, 'CPU µs per stream': Math.round(micros), 'µs per chunk over the floor': Number(((micros - floor) / events).toFixed(2)) }
  })
}

// What reading usage off a same-format stream costs, in-process: a 200-delta answer of each format
// through the same-format transform, with the format's codec (the usage tap decodes every event) and
// without one (bytes only), whole in one chunk and one event per chunk.
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import type { WireCodec } from '../../core/canonical/codec.ts'
import type { ProxyKernel } from '../../core/kernel/kernel.ts'
import type { ProxyRequest } from '../../core/kernel/hooks.ts'
import { createStreamTransform } from '../../core/pipeline/stream-transform.ts'

const deltas = 200
const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`

const streams: Record<string, string[]> = {
  chat: [
    ...Array.from({ length: deltas }, (_, i) => sse({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: `tok${i} ` }, finish_reason: null }], usage: null })),
    sse({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null }),
    sse({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 20000, completion_tokens: 200, total_tokens: 20200, prompt_tokens_details: { cached_tokens: 18000 } } }),
    'data: [DONE]\n\n',
  ],
  messages: [
    sse({ type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 2000, cache_read_input_tokens: 18000, output_tokens: 1 } } }, 'message_start'),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    ...Array.from({ length: deltas }, (_, i) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `tok${i} ` } }, 'content_block_delta')),
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: deltas } }, 'message_delta'),
    sse({ type: 'message_stop' }, 'message_stop'),
  ],
  responses: [
    sse({ type: 'response.created', response: { id: 'r', status: 'in_progress', output: [], usage: null } }, 'response.created'),
    ...Array.from({ length: deltas }, (_, i) => sse({ type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'm', delta: `tok${i} ` }, 'response.output_text.delta')),
    sse({ type: 'response.completed', response: { id: 'r', status: 'completed', output: [], usage: { input_tokens: 20000, output_tokens: 200, input_tokens_details: { cached_tokens: 18000 } } } }, 'response.completed'),
  ],
  generate: Array.from({ length: deltas }, (_, i) => `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: `tok${i} ` }] }, index: 0, ...(i === deltas - 1 && { finishReason: 'STOP' }) }], usageMetadata: { promptTokenCount: 20000, candidatesTokenCount: i + 1, totalTokenCount: 20001 + i } })}\r\n\r\n`),
}
const codecs: Record<string, WireCodec> = { chat: chatCodec, messages: messagesCodec, responses: responsesCodec, generate: generateCodec }

function run(format: string, tap: boolean, chunks: Buffer[], asked: boolean): void {
  // Without the codec the transform passes bytes only: no decoder, no usage.
  const kernel = { formats: new Map(tap ? [[format, codecs[format]!]] : []) } as unknown as ProxyKernel
  // A chat client that did not ask for usage: the tap also takes the usage-only chunk out.
  const request = { inbound: format, model: 'm', body: asked ? { stream_options: { include_usage: true } } : {} } as unknown as ProxyRequest
  const transform = createStreamTransform(kernel, request, { upstream: format, upstreamModel: 'm', sse: true, passthrough: true })
  for (const chunk of chunks) transform.push(chunk)
  transform.end()
  if (tap && !transform.usage) throw new Error(`${format}: no usage read`)
}

export async function benchUsageTap(): Promise<Array<Record<string, string | number>>> {
  const answers = Number(process.env.BENCH_STREAMS ?? 2000)
  const rows: Array<Record<string, string | number>> = []
  for (const [format, asked] of [...Object.keys(streams).map(format => [format, true] as const), ['chat', false] as const]) {
    for (const [shape, chunks] of [['one chunk', [Buffer.from(streams[format]!.join(''))]], ['a chunk per event', streams[format]!.map(event => Buffer.from(event))]] as const) {
      const micros: Record<'off' | 'on', number[]> = { off: [], on: [] }
      // Interleaved rounds, the first a warm-up (JIT).
      for (let round = 0; round < 7; round++) {
        for (const side of ['off', 'on'] as const) {
          const before = process.cpuUsage()
          for (let i = 0; i < answers; i++) run(format, side === 'on', chunks as Buffer[], asked)
          const used = process.cpuUsage(before)
          if (round) micros[side].push((used.user + used.system) / answers)
        }
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!
      const off = median(micros.off)
      const on = median(micros.on)
      rows.push({ format: asked ? format : `${format}, usage not asked`, upstream: shape, 'bytes only µs/answer': Number(off.toFixed(1)), 'with usage tap µs/answer': Number(on.toFixed(1)), 'tap µs/answer': Number((on - off).toFixed(1)) })
    }
  }
  return rows
}

import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import type { WireCodec } from '../../core/canonical/codec.ts'
import type { ProxyKernel } from '../../core/kernel/kernel.ts'
import type { ProxyRequest } from '../../core/kernel/hooks.ts'
import { createStreamTransform } from '../../core/pipeline/stream-transform.ts'

const codecs: Record<string, WireCodec> = { chat: chatCodec, messages: messagesCodec, generate: generateCodec, responses: responsesCodec }

/**
 * One same-format stream through the passthrough (bytes tapped) and the translating transform (every
 * frame decoded): what each reports, and the bytes each sent. A stream that never primed reports only that.
 */
export function tapAndPlain(format: string, chunks: string[], body: object = { stream_options: { include_usage: true } }) {
  const kernel = { formats: new Map([[format, codecs[format]!]]) } as unknown as ProxyKernel
  const request = { inbound: format, model: 'm', body } as unknown as ProxyRequest
  const [fast, plain] = [true, false].map((passthrough) => {
    const transform = createStreamTransform(kernel, request, { upstream: format, upstreamModel: 'm', sse: true, passthrough })
    let sent = ''
    for (const chunk of chunks) sent += Buffer.from(transform.push(Buffer.from(chunk)) ?? []).toString()
    if (!transform.primed) return { seen: { primed: false }, sent }
    sent += Buffer.from(transform.end() ?? []).toString()
    return { seen: { primed: true, usage: transform.usage, cut: transform.cut, error: transform.upstreamError }, sent }
  })
  return { fast: fast!, plain: plain! }
}

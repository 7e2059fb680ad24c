import { beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { WireCodec, BuiltinWireFormat } from '../../core/canonical/codec.ts'
import type { ProxyKernel } from '../../core/kernel/kernel.ts'
import type { ProxyRequest } from '../../core/kernel/hooks.ts'
import { createSseParser } from '../../core/framing/sse.ts'
import { buildUpstreamBody } from '../../core/pipeline/upstream-body.ts'
import { envelopeMarker } from '../../core/canonical/signature.ts'
import { codecs } from './codecs.ts'
import { assembleClientStream, clientReplay, upstreamAnswer, type Answer } from './signature-fixtures.ts'
import { vendorComplaint } from './vendor-rules.ts'

// A case that returns before its first expect fails instead of passing.
beforeEach(() => { expect.hasAssertions() })

/**
 * Issue 21, items 1 and 3: an answer with thinking and tool calls, from each upstream to each client,
 * stream and not, replayed by the client in turn 2 and sent upstream by the same code the proxy runs.
 */
const formats: BuiltinWireFormat[] = ['chat', 'messages', 'responses', 'generate']
const codecOf = (format: BuiltinWireFormat) => codecs.find(codec => codec.format === format) as WireCodec
const kernel = { formats: new Map(codecs.map(codec => [codec.format, codec])), modelInfo: new Map(), logger: { debug() {} } } as unknown as ProxyKernel

/** What the client receives: the upstream's own bytes for the same format, else the translation. */
function clientAnswer(client: BuiltinWireFormat, upstream: BuiltinWireFormat, answer: Answer, stream: boolean): Record<string, any> {
  const wire = upstreamAnswer(upstream, answer)
  if (client === upstream) return stream ? assembleClientStream(client, wire.stream) : wire.json
  if (!stream) return JSON.parse(JSON.stringify(codecOf(client).response.encode(codecOf(upstream).response.decode(wire.json))))
  const decoder = codecOf(upstream).stream.createDecoder()
  const encoder = codecOf(client).stream.createEncoder({ model: 'm' })
  const parser = createSseParser()
  let text = ''
  for (const event of [...parser.push(wire.stream), ...parser.end()]) for (const canonical of decoder.push(event)) text += encoder.push(canonical)
  for (const canonical of decoder.end()) text += encoder.push(canonical)
  return assembleClientStream(client, text + encoder.end())
}

/** Turn 2 as it leaves the proxy for `upstream`, and what the client is told was dropped. */
function replayUpstream(client: BuiltinWireFormat, upstream: BuiltinWireFormat, answer: Record<string, any>) {
  const request = { id: 't', inbound: client, body: clientReplay(client, answer), stream: false } as unknown as ProxyRequest
  const body = buildUpstreamBody(kernel, request, upstream, 'm').read()
  return { body, text: JSON.stringify(body), dropped: request.dropped ?? [] }
}

/** The tool calls as the client holds them: name and parsed arguments, in order. */
function clientCalls(client: BuiltinWireFormat, answer: Record<string, any>): Array<[string, unknown]> {
  switch (client) {
    case 'messages': return answer.content.filter((b: any) => b.type === 'tool_use').map((b: any) => [b.name, b.input])
    case 'chat': return answer.choices[0].message.tool_calls.map((c: any) => [c.function.name, JSON.parse(c.function.arguments)])
    case 'responses': return answer.output.filter((i: any) => i.type === 'function_call').map((i: any) => [i.name, JSON.parse(i.arguments)])
    case 'generate': return answer.candidates[0].content.parts.filter((p: any) => p.functionCall).map((p: any) => [p.functionCall.name, p.functionCall.args])
  }
}

const pairs = formats.flatMap(client => formats.flatMap(upstream => [false, true].map(stream => ({ client, upstream, stream }))))

describe('reasoning signatures through a tool-use turn, every pair', () => {
  it.each(pairs)('$client client, $upstream upstream, stream $stream', ({ client, upstream, stream }) => {
    const signature = upstream === 'chat' ? undefined : `${upstream}-signature-A1b2`
    const answer: Answer = { thinking: 'Plan the lookups.', signature, calls: [{ id: 'call_a', name: 'get_weather', args: { city: 'Paris' } }, { id: 'call_b', name: 'get_time', args: {} }] }
    const received = clientAnswer(client, upstream, answer, stream)
    // Thinking text reaches every client, stream or not; parallel calls come whole, `{}` for no arguments.
    expect(JSON.stringify(received)).toContain('Plan the lookups.')
    expect(clientCalls(client, received)).toEqual([['get_weather', { city: 'Paris' }], ['get_time', {}]])

    const sent = replayUpstream(client, upstream, received)
    const issued = new Map(signature ? [[signature, answer.thinking]] : [])
    expect(vendorComplaint(upstream, sent.body, issued)).toBeUndefined()
    expect(sent.text).not.toContain(envelopeMarker)
    // The issuing vendor gets its signature back wherever the client's format has a slot for it.
    if (signature && client !== 'chat') expect(sent.text).toContain(signature)
    // A chat client has nowhere to keep it: Anthropic's rule then turns thinking off for the turn, said in x-proxy-dropped.
    if (client === 'chat' && upstream === 'messages') {
      expect(sent.body.thinking).toEqual({ type: 'disabled' })
      expect(sent.dropped).toContain('reasoning_effort')
    }
    if (client === 'chat' && upstream === 'generate') expect(sent.text).toContain('skip_thought_signature_validator')
  })
})

describe('a signature never reaches another vendor', () => {
  it('property: answer from one upstream, replayed by any client to any upstream', () => {
    const format = fc.constantFrom(...formats)
    const call = fc.record({ name: fc.stringMatching(/^[a-z_]{1,10}$/), args: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }) })
    const text = fc.string({ minLength: 1, maxLength: 40 }).filter(s => s.trim() === s && s.length > 0)
    const signature = fc.base64String({ minLength: 8, maxLength: 64 }).filter(s => s.length >= 8)
    fc.assert(fc.property(format, format, format, fc.boolean(), text, signature, fc.array(call, { minLength: 1, maxLength: 3 }), (client, first, second, stream, thinking, raw, calls) => {
      const sig = first === 'chat' ? undefined : `${first}:${raw}`
      const answer: Answer = { thinking, signature: sig, calls: calls.map((c, i) => ({ ...c, id: `call_${i}` })) }
      const received = clientAnswer(client, first, answer, stream)
      const sent = replayUpstream(client, second, received)
      const issued = new Map(sig && first === second ? [[sig, thinking]] : [])
      expect(vendorComplaint(second, sent.body, issued)).toBeUndefined()
      expect(sent.text).not.toContain(envelopeMarker)
      if (sig && first !== second) expect(sent.text).not.toContain(JSON.stringify(sig).slice(1, -1))
      if (sig && first === second && client !== 'chat') expect(sent.text).toContain(JSON.stringify(sig).slice(1, -1))
    }), { numRuns: 400 })
  })
})

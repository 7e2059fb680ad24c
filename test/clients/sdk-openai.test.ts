import { describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type SdkSession } from './lab/agent-lab.ts'
import { clientRow, labTitle } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

/** The official `openai` SDK, chat completions and responses, against every upstream family. */

const lab = useAgentLab()
const row = clientRow('openai')
const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }

function client(family: Family): { sdk: OpenAI; session: SdkSession } {
  const session = lab.session(family)
  return { session, sdk: new OpenAI({ baseURL: `${lab.setup.proxy.url}/v1`, apiKey: session.key, maxRetries: 0 }) }
}
const clean = (session: SdkSession) => expect(session.calls().filter(call => call.status >= 400)).toEqual([])

describe.concurrent.each(families)(labTitle(row, '%s'), (family) => {
  describe('chat completions', () => {
    it('plain', async () => {
      const { sdk, session } = client(family)
      const completion = await sdk.chat.completions.create({ model: session.model, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `ping ${session.nonce}` }] })
      expect(completion.model).toBe(session.model)
      expect(completion.choices[0]!.message.content).toBe(greeting(`ping ${session.nonce}`))
      expect(completion.choices[0]!.finish_reason).toBe('stop')
      expect(completion.usage!.prompt_tokens).toBeGreaterThan(0)
      expect(completion.usage!.completion_tokens).toBeGreaterThan(0)
      clean(session)
      if (family === 'compat') saveFixture('openai', 'chat-plain', session.calls()[0], session)
    })

    it('stream', async () => {
      const { sdk, session } = client(family)
      const deltas: string[] = []
      for await (const chunk of await sdk.chat.completions.create({ model: session.model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: `stream ${session.nonce}` }] })) {
        if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content)
      }
      expect(deltas.length).toBeGreaterThan(1)
      expect(deltas.join('')).toBe(greeting(`stream ${session.nonce}`))
      clean(session)
      if (family === 'compat') saveFixture('openai', 'chat-stream', session.calls()[0], session)
    })

    it('tool: a streamed tool call, then the tool result turn', async () => {
      const { sdk, session } = client(family)
      const tools = [{ type: 'function' as const, function: weather }]
      const asked = `get_weather in Paris ${session.nonce}`
      const final = await sdk.chat.completions.stream({ model: session.model, messages: [{ role: 'user', content: asked }], tools }).finalChatCompletion()
      const call = final.choices[0]!.message.tool_calls![0]!
      expect(final.choices[0]!.finish_reason).toBe('tool_calls')
      expect(call.type === 'function' && call.function.name).toBe('get_weather')
      expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ query: asked.slice(0, 40) })
      const answer = await sdk.chat.completions.create({
        model: session.model, tools,
        messages: [{ role: 'user', content: asked }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'sunny, 21C' }],
      })
      expect(answer.choices[0]!.message.content).toBe('The tool said: sunny, 21C')
      clean(session)
      if (family === 'compat') saveFixture('openai', 'chat-tool-result', session.calls()[1], session)
    })
  })

  describe('responses', () => {
    it('plain', async () => {
      const { sdk, session } = client(family)
      const response = await sdk.responses.create({ model: session.model, instructions: 'Be brief.', input: `ping ${session.nonce}` })
      expect(response.output_text).toBe(greeting(`ping ${session.nonce}`))
      expect(response.usage!.input_tokens).toBeGreaterThan(0)
      clean(session)
      if (family === 'gamma') saveFixture('openai', 'responses-plain', session.calls()[0], session)
    })

    it('stream', async () => {
      const { sdk, session } = client(family)
      const deltas: string[] = []
      for await (const event of await sdk.responses.create({ model: session.model, input: `stream ${session.nonce}`, stream: true })) {
        if (event.type === 'response.output_text.delta') deltas.push(event.delta)
      }
      expect(deltas.length).toBeGreaterThan(1)
      expect(deltas.join('')).toBe(greeting(`stream ${session.nonce}`))
      clean(session)
    })

    it('tool: a streamed function call, then its function_call_output', async () => {
      const { sdk, session } = client(family)
      const tools = [{ type: 'function' as const, strict: false, ...weather }]
      const asked = `get_weather in Rome ${session.nonce}`
      const final = await sdk.responses.stream({ model: session.model, input: asked, tools }).finalResponse()
      const call = final.output.find(item => item.type === 'function_call')
      expect(call && call.type === 'function_call' && call.name).toBe('get_weather')
      expect(call && call.type === 'function_call' && JSON.parse(call.arguments)).toEqual({ query: asked.slice(0, 40) })
      if (call?.type !== 'function_call') return
      const answer = await sdk.responses.create({ model: session.model, tools, input: [{ role: 'user', content: asked }, call, { type: 'function_call_output', call_id: call.call_id, output: 'fog, 9C' }] })
      expect(answer.output_text).toBe('The tool said: fog, 9C')
      clean(session)
      if (family === 'gamma') saveFixture('openai', 'responses-tool-result', session.calls()[1], session)
    })
  })

  it('responses.inputTokens.count: counted here, nothing goes upstream', async () => {
    const { sdk, session } = client(family)
    const tools = [{ type: 'function' as const, strict: false, ...weather }]
    const counted = await sdk.responses.inputTokens.count({ model: session.model, instructions: 'Be brief.', input: [{ role: 'user', content: `count ${session.nonce}` }], tools })
    expect(counted.object).toBe('response.input_tokens')
    expect(counted.input_tokens).toBeGreaterThan(0)
    // More input, more tokens; no body at all (every field is optional) counts 0.
    expect((await sdk.responses.inputTokens.count({ model: session.model, input: `count ${session.nonce} ${'more words '.repeat(20)}`, tools })).input_tokens).toBeGreaterThan(counted.input_tokens)
    expect((await sdk.responses.inputTokens.count({ model: session.model })).input_tokens).toBe(0)
    expect(session.upstream(family)).toEqual([])
    clean(session)
  })

  it('models.retrieve and models.list', async () => {
    const { sdk, session } = client(family)
    expect(await sdk.models.retrieve(session.model)).toMatchObject({ id: session.model, object: 'model' })
    const listed = []
    for await (const model of sdk.models.list()) listed.push(model.id)
    expect(listed).toContain(session.model)
    await expect(sdk.models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 })
  })
})

import { describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type SdkSession } from './lab/agent-lab.ts'
import { clientRow, labTitle } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

/**
 * The official `@anthropic-ai/sdk` against every upstream family, with what its current types offer:
 * system messages inside `messages` (SystemMessageParam), adaptive thinking with `output_config.effort`.
 */

const lab = useAgentLab()
const row = clientRow('anthropic')
const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }]

function client(family: Family): { sdk: Anthropic; session: SdkSession } {
  const session = lab.session(family)
  return { session, sdk: new Anthropic({ baseURL: lab.setup.proxy.url, apiKey: session.key, maxRetries: 0 }) }
}
const clean = (session: SdkSession) => expect(session.calls().filter(call => call.status >= 400)).toEqual([])
const textOf = (message: Anthropic.Message) => message.content.flatMap(block => block.type === 'text' ? [block.text] : []).join('')

describe.concurrent.each(families)(labTitle(row, '%s'), (family) => {
  it('plain: a system message mid-conversation, adaptive thinking, an effort', async () => {
    const { sdk, session } = client(family)
    const message = await sdk.messages.create({
      model: session.model, max_tokens: 1024, system: 'Be brief.',
      thinking: { type: 'adaptive' }, output_config: { effort: 'medium' },
      messages: [{ role: 'user', content: `ping ${session.nonce}` }, { role: 'system', content: 'Answer in English.' }],
    })
    expect(textOf(message)).toBe(greeting(`ping ${session.nonce}`))
    expect(message.model).toBe(session.model)
    expect(message.stop_reason).toBe('end_turn')
    expect(message.usage.output_tokens).toBeGreaterThan(0)
    // The system message reached the upstream in its format's nearest form.
    expect(JSON.stringify(session.upstream(family))).toContain('Answer in English.')
    clean(session)
    if (family === 'beta') saveFixture('anthropic', 'plain', session.calls()[0], session)
  })

  it('stream', async () => {
    const { sdk, session } = client(family)
    const deltas: string[] = []
    const stream = sdk.messages.stream({ model: session.model, max_tokens: 256, messages: [{ role: 'user', content: `stream ${session.nonce}` }] })
    stream.on('text', text => deltas.push(text))
    const final = await stream.finalMessage()
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.join('')).toBe(greeting(`stream ${session.nonce}`))
    expect(textOf(final)).toBe(greeting(`stream ${session.nonce}`))
    clean(session)
    if (family === 'beta') saveFixture('anthropic', 'stream', session.calls()[0], session)
  })

  it('tool: stream().finalMessage() with tool_use, then tool_result', async () => {
    const { sdk, session } = client(family)
    const asked = `get_weather in Oslo ${session.nonce}`
    const message = await sdk.messages.stream({ model: session.model, max_tokens: 256, tools, messages: [{ role: 'user', content: asked }] }).finalMessage()
    const use = message.content.find(block => block.type === 'tool_use')
    expect(message.stop_reason).toBe('tool_use')
    expect(use && use.type === 'tool_use' && use.input).toEqual({ query: asked.slice(0, 40) })
    const answer = await sdk.messages.create({
      model: session.model, max_tokens: 256, tools,
      messages: [
        { role: 'user', content: asked },
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: (use as Anthropic.ToolUseBlock).id, content: 'snow, -3C' }] },
      ],
    })
    expect(textOf(answer)).toBe('The tool said: snow, -3C')
    clean(session)
    if (family === 'beta') saveFixture('anthropic', 'tool-result', session.calls()[1], session)
  })

  it('countTokens counts the system messages too; models.retrieve and models.list', async () => {
    const { sdk, session } = client(family)
    const bare = await sdk.messages.countTokens({ model: session.model, messages: [{ role: 'user', content: 'How many tokens is this?' }] })
    const withSystem = await sdk.messages.countTokens({ model: session.model, messages: [{ role: 'user', content: 'How many tokens is this?' }, { role: 'system', content: 'Count every token of this instruction as well, please.' }] })
    expect(bare.input_tokens).toBeGreaterThan(5)
    expect(withSystem.input_tokens).toBeGreaterThan(bare.input_tokens + 5)
    expect(await sdk.models.retrieve(session.model)).toMatchObject({ type: 'model', id: session.model })
    const listed = []
    for await (const model of sdk.models.list()) listed.push(model.id)
    expect(listed).toContain(session.model)
    await expect(sdk.models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, greeting, startFamilyProxy, type Family, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * What the current clients send that older proxies refused: system messages inside `messages` (Claude
 * Code 2.x, @anthropic-ai/sdk 1.12), roles and fields this proxy does not know, adaptive thinking and
 * `output_config.effort`. Same format: passed through untouched. Other formats: mapped, or dropped and
 * named in `x-proxy-dropped`.
 */

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => fetch(`${setup.proxy.url}${path}`, {
  method: 'POST', headers: { 'x-api-key': clientKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
})
const lastBody = (family: Family) => JSON.parse(setup.upstreams[family].requests.at(-1)!.body)

/** A Claude Code 2.x turn: the environment as a system message after the prompt, cache marks, betas' fields. */
const claudeCodeTurn = (model: string) => ({
  model, max_tokens: 1000, stream: false,
  system: [{ type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'system', content: [{ type: 'text', text: '# Environment: linux', cache_control: { type: 'ephemeral' } }] },
  ],
  thinking: { type: 'adaptive' },
  output_config: { effort: 'high' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
})

describe('system messages inside messages (Claude Code 2.x)', () => {
  it('reach a messages upstream untouched, in place', async () => {
    const response = await post('/v1/messages', claudeCodeTurn(familyModels.beta))
    expect(response.status).toBe(200)
    expect(response.headers.get('x-proxy-dropped')).toBeNull()
    const sent = lastBody('beta')
    expect(sent.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'system'])
    expect(sent).toMatchObject({ context_management: { edits: [{ type: 'clear_thinking_20251015' }] }, output_config: { effort: 'high' }, thinking: { type: 'adaptive' } })
  })

  it.each<[Family, (body: any) => unknown, unknown]>([
    // chat: a system message where the client put it.
    ['compat', body => body.messages.map((m: any) => [m.role, m.content]), [['system', 'You are an agent.'], ['user', 'hi'], ['system', '# Environment: linux']]],
    // responses: leading system -> instructions, the later one a developer item in place.
    ['gamma', body => [body.instructions, body.input.map((item: any) => item.role)], ['You are an agent.', ['user', 'developer']]],
    // generateContent has no system turn: every system text is folded into systemInstruction, in order.
    ['alpha', body => [body.systemInstruction.parts[0].text, body.contents.map((c: any) => c.role)], ['You are an agent.\n\n# Environment: linux', ['user']]],
    ['delta', body => body.systemInstruction.parts[0].text, 'You are an agent.\n\n# Environment: linux'],
  ])('map to a %s upstream\'s nearest form', async (family, read, expected) => {
    const response = await post('/v1/messages', claudeCodeTurn(familyModels[family]))
    expect(response.status).toBe(200)
    expect((await response.json()).content.at(-1)).toMatchObject({ type: 'text', text: greeting('hi') })
    expect(read(lastBody(family))).toEqual(expected)
    expect(response.headers.get('x-proxy-dropped')?.split(',')).toEqual(expect.arrayContaining(['cache_control', 'context_management']))
  })

  it('are counted by count_tokens', async () => {
    const count = async (messages: unknown[]) => (await (await post('/v1/messages/count_tokens', { model: familyModels.alpha, messages })).json()).input_tokens
    const without = await count([{ role: 'user', content: 'hi' }])
    const withSystem = await count([{ role: 'user', content: 'hi' }, { role: 'system', content: 'You work in a linux shell with these tools available.' }])
    expect(withSystem).toBeGreaterThan(without + 8)
  })

  it('a chat client\'s mid-conversation system message stays in place for a messages upstream', async () => {
    await post('/v1/chat/completions', { model: familyModels.beta, messages: [{ role: 'system', content: 'Lead.' }, { role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'developer', content: 'Later.' }, { role: 'user', content: 'c' }] }, { authorization: `Bearer ${clientKey}` })
    const sent = lastBody('beta')
    expect(sent.system).toBe('Lead.')
    expect(sent.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'system', 'user'])
    expect(sent.messages[2].content).toBe('Later.')
  })
})

describe('what the proxy does not know', () => {
  it('an unknown role passes through on the same format and is dropped (and named) across', async () => {
    const body = { max_tokens: 100, messages: [{ role: 'user', content: 'hi' }, { role: 'critic', content: 'be terse' }] }
    const same = await post('/v1/messages', { ...body, model: familyModels.beta })
    expect(same.status).toBe(200)
    expect(lastBody('beta').messages[1]).toEqual({ role: 'critic', content: 'be terse' })
    const across = await post('/v1/messages', { ...body, model: familyModels.compat })
    expect(across.status).toBe(200)
    expect(across.headers.get('x-proxy-dropped')).toBe('role:critic')
    expect(lastBody('compat').messages).toEqual([{ role: 'user', content: 'hi' }])
  })

  it('unknown fields, tool attributes, server tools and block types are named when they cannot cross', async () => {
    const response = await post('/v1/messages', {
      model: familyModels.gamma, max_tokens: 100, mcp_servers: [{ type: 'url', url: 'https://mcp.test', name: 'x' }],
      tools: [{ name: 'Read', input_schema: { type: 'object' }, defer_loading: true }, { type: 'web_search_20250305', name: 'web_search' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } }] }],
    })
    expect(response.status).toBe(200)
    // Documents and the web search tool cross since issue 21 (docs/translation.md); the rest cannot.
    expect(response.headers.get('x-proxy-dropped')!.split(',').sort()).toEqual(['mcp_servers', 'tools.defer_loading'])
    expect(lastBody('gamma').tools).toMatchObject([{ type: 'function', name: 'Read' }, { type: 'web_search' }])
  })

  it('a chat client\'s unknown role, tool type and fields behave the same way', async () => {
    const body = { messages: [{ role: 'user', content: 'hi' }, { role: 'ipython', content: 'x' }], tools: [{ type: 'custom', custom: { name: 'grep' } }], store: true }
    const same = await post('/v1/chat/completions', { ...body, model: familyModels.compat }, { authorization: `Bearer ${clientKey}` })
    expect(same.status).toBe(200)
    expect(lastBody('compat')).toMatchObject({ store: true, tools: [{ type: 'custom' }], messages: [{ role: 'user' }, { role: 'ipython' }] })
    const across = await post('/v1/chat/completions', { ...body, model: familyModels.alpha }, { authorization: `Bearer ${clientKey}` })
    expect(across.status).toBe(200)
    expect(across.headers.get('x-proxy-dropped')!.split(',').sort()).toEqual(['role:ipython', 'store', 'tool:custom'])
  })
})

describe('effort: adaptive thinking and output_config.effort reach each family\'s own knob', () => {
  it.each<[string, object, Family, (body: any) => unknown, unknown]>([
    ['adaptive, no effort', { thinking: { type: 'adaptive' } }, 'compat', body => 'reasoning_effort' in body, false],
    ['adaptive, no effort', { thinking: { type: 'adaptive' } }, 'gamma', body => body.reasoning?.effort, undefined],
    ['adaptive, no effort', { thinking: { type: 'adaptive' } }, 'alpha', body => body.generationConfig.thinkingConfig, { thinkingBudget: -1, includeThoughts: true }],
    ['adaptive + effort high', { thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }, 'compat', body => body.reasoning_effort, 'high'],
    ['adaptive + effort max', { thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }, 'gamma', body => body.reasoning.effort, 'max'],
    ['adaptive + effort low', { thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, 'alpha', body => body.generationConfig.thinkingConfig.thinkingBudget, 1024],
    ['display omitted: no thoughts asked', { thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'medium' } }, 'delta', body => body.generationConfig.thinkingConfig, { thinkingBudget: 8192, includeThoughts: false }],
    ['effort alone', { output_config: { effort: 'xhigh' } }, 'compat', body => body.reasoning_effort, 'xhigh'],
  ])('%s -> %s upstream', async (_name, fields, family, read, expected) => {
    const response = await post('/v1/messages', { model: familyModels[family], max_tokens: 100, messages: [{ role: 'user', content: 'x' }], ...fields })
    expect(response.status).toBe(200)
    expect(read(lastBody(family))).toEqual(expected)
  })

  it('a chat client\'s reasoning_effort auto (the spec\'s value) is never sent to a chat upstream across formats', async () => {
    await post('/v1/responses', { model: familyModels.compat, input: 'x', reasoning: { effort: 'auto' } }, { authorization: `Bearer ${clientKey}` })
    expect('reasoning_effort' in lastBody('compat')).toBe(false)
  })
})

import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * What the unknown-field property test (test/conformance/unknown-fields.property.test.ts) found, over
 * HTTP: what a crossing cannot carry is in `x-proxy-dropped`, and what it can reaches the upstream.
 */
const codex = JSON.parse(readFileSync(new URL('../fixtures/clients/codex-plain.json', import.meta.url), 'utf8')).body

let family: FamilyProxy
beforeAll(async () => { family = await startFamilyProxy() }, 60_000)
afterAll(async () => { await family?.close() })

const post = (path: string, body: unknown) => fetch(`${family.proxy.url}${path}`, {
  method: 'POST',
  headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const dropped = (res: Response) => (res.headers.get('x-proxy-dropped') ?? '').split(',')
const lastBody = (upstream: keyof FamilyProxy['upstreams']) => JSON.parse(family.upstreams[upstream].requests.at(-1)!.body)

describe('unknown fields across formats, over HTTP', () => {
  it("Codex's cached-only web search toward messages is named", async () => {
    const res = await post('/v1/responses', { ...codex, model: familyModels.beta, stream: false })
    expect(res.status).toBe(200)
    expect(dropped(res)).toContain('tool:web_search.external_web_access')
    // The search itself still goes: a live one, which is what the header warns of.
    expect(lastBody('beta').tools.some((tool: { type?: string }) => tool.type?.startsWith('web_search'))).toBe(true)
  })

  it("a chat client's custom tool call toward messages: answered, the call and its result left out and named", async () => {
    const res = await post('/v1/chat/completions', {
      model: familyModels.beta,
      tools: [{ type: 'custom', custom: { name: 'apply_patch' } }, { type: 'function', function: { name: 'f', strict: true, parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: 'patch it' },
        { role: 'assistant', content: 'patching', tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
        { role: 'user', content: [{ type: 'text', text: 'thanks', cache_control: { type: 'ephemeral' } }] },
      ],
    })
    expect(res.status).toBe(200)
    expect(dropped(res)).toEqual(expect.arrayContaining(['tool_calls:custom', 'tool:custom', 'tools.function.strict', 'content.cache_control']))
    expect(JSON.stringify(lastBody('beta').messages)).not.toContain('c1')
  })

  it("a generateContent tool result's fields beside its output reach a chat upstream", async () => {
    const res = await post(`/v1beta/models/${familyModels.compat}:generateContent`, {
      contents: [
        { role: 'user', parts: [{ text: 'run it' }] },
        { role: 'model', parts: [{ functionCall: { id: 'r1', name: 'run', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'r1', name: 'run', response: { output: 'done', exitCode: 3 } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'run', behavior: 'NON_BLOCKING' }] }],
    })
    expect(res.status).toBe(200)
    expect(dropped(res)).toContain('functionDeclarations.behavior')
    const tool = lastBody('compat').messages.find((message: { role: string }) => message.role === 'tool')
    expect(JSON.parse(tool.content)).toEqual({ output: 'done', exitCode: 3 })
  })
})

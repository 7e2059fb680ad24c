import { describe, expect, it } from 'vitest'
import { GoogleGenAI, type FunctionCall } from '@google/genai'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type SdkSession } from './lab/agent-lab.ts'
import { clientRow, labTitle } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

/** The official `@google/genai` (3.x calls the `v1` API version by default) against every upstream family. */

const lab = useAgentLab()
const row = clientRow('genai')
const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather for a city', parametersJsonSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }] }] }

function client(family: Family): { sdk: GoogleGenAI; session: SdkSession } {
  const session = lab.session(family)
  return { session, sdk: new GoogleGenAI({ apiKey: session.key, httpOptions: { baseUrl: lab.setup.proxy.url } }) }
}
const clean = (session: SdkSession) => expect(session.calls().filter(call => call.status >= 400)).toEqual([])

describe.concurrent.each(families)(labTitle(row, '%s'), (family) => {
  it('plain: generateContent', async () => {
    const { sdk, session } = client(family)
    const response = await sdk.models.generateContent({ model: session.model, contents: `ping ${session.nonce}`, config: { systemInstruction: 'Be brief.' } })
    expect(response.text).toBe(greeting(`ping ${session.nonce}`))
    expect(response.modelVersion).toBe(session.model)
    expect(response.usageMetadata!.promptTokenCount).toBeGreaterThan(0)
    expect(session.calls().map(call => `${call.method} ${call.path}`)).toEqual([`POST /v1/models/${session.model}:generateContent`])
    clean(session)
    if (family === 'alpha') saveFixture('genai', 'plain', session.calls()[0], session)
  })

  it('stream: generateContentStream', async () => {
    const { sdk, session } = client(family)
    const deltas: string[] = []
    for await (const chunk of await sdk.models.generateContentStream({ model: session.model, contents: `stream ${session.nonce}` })) deltas.push(chunk.text ?? '')
    expect(deltas.filter(Boolean).length).toBeGreaterThan(1)
    expect(deltas.join('')).toBe(greeting(`stream ${session.nonce}`))
    expect(session.calls().map(call => call.path)).toEqual([`/v1/models/${session.model}:streamGenerateContent?alt=sse`])
    clean(session)
    if (family === 'alpha') saveFixture('genai', 'stream', session.calls()[0], session)
  })

  it('tool: a streamed functionCall, then the functionResponse', async () => {
    const { sdk, session } = client(family)
    const asked = `get_weather in Lima ${session.nonce}`
    const calls: FunctionCall[] = []
    for await (const chunk of await sdk.models.generateContentStream({ model: session.model, contents: asked, config })) calls.push(...(chunk.functionCalls ?? []))
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ name: 'get_weather', args: { query: asked.slice(0, 40) } })
    const answer = await sdk.models.generateContent({
      model: session.model, config,
      contents: [
        { role: 'user', parts: [{ text: asked }] },
        { role: 'model', parts: [{ functionCall: calls[0] }] },
        { role: 'user', parts: [{ functionResponse: { id: calls[0]!.id, name: 'get_weather', response: { result: 'fog' } } }] },
      ],
    })
    expect(answer.text).toBe('The tool said: fog')
    clean(session)
    if (family === 'alpha') saveFixture('genai', 'tool-result', session.calls()[1], session)
  })

  it('countTokens, models.get and models.list', async () => {
    const { sdk, session } = client(family)
    const count = await sdk.models.countTokens({ model: session.model, contents: 'How many tokens is this?' })
    expect(count.totalTokens).toBeGreaterThan(5)
    expect(await sdk.models.get({ model: session.model })).toMatchObject({ name: `models/${session.model}` })
    const listed: string[] = []
    for await (const model of await sdk.models.list()) listed.push(model.name ?? '')
    expect(listed).toContain(`models/${session.model}`)
    await expect(sdk.models.get({ model: 'no-such-model' })).rejects.toMatchObject({ status: 404 })
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BuiltinWireFormat, WireFormat } from '../../core/canonical/codec.ts'
import type { CanonicalRequest } from '../../core/canonical/types.ts'
import { droppedFields } from '../../core/canonical/dropped.ts'
import { clientKey, families, familyModels, startFamilyProxy, type Family, type FamilyProxy } from '../helpers/family-proxy.ts'
import { streamCompleted, type ClientFormat } from '../helpers/client-formats.ts'
import { keyMarker, loadFixtures, recordedFixturesDir, type ClientFixture } from '../clients/lab/fixtures.ts'
import { codecs } from './codecs.ts'

// A case that returns before its first expect fails instead of passing.
beforeEach(() => { expect.hasAssertions() })

/**
 * The real requests of every client in the lab (test/fixtures/clients, recorded from the versions in
 * package.json), and those the flight recorder exported (test/fixtures/recorded), replayed: through
 * every codec, and over HTTP to every upstream family.
 */

const fixtures = loadFixtures()
const recorded = loadFixtures(recordedFixturesDir)
let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())
const familyFormat: Record<Family, WireFormat> = { compat: 'chat', beta: 'messages', gamma: 'responses', alpha: 'generate', delta: 'generate' }
const codecOf = (format: WireFormat) => codecs.find(codec => codec.format === format)!
const generatePath = /^\/v1(?:beta)?\/models\/([^/:]+):(\w+)/

function formatOf(fixture: ClientFixture): BuiltinWireFormat {
  if (fixture.path.startsWith('/v1/messages')) return 'messages'
  if (fixture.path.startsWith('/v1/chat/completions')) return 'chat'
  if (fixture.path.startsWith('/v1/responses')) return 'responses'
  if (generatePath.test(fixture.path)) return 'generate'
  throw new Error(`fixture ${fixture.client}-${fixture.case}: unknown endpoint ${fixture.path}`)
}

/** The fixture's body as its codec decodes it (generateContent names the model in the URL). */
function decode(fixture: ClientFixture): CanonicalRequest {
  const format = formatOf(fixture)
  const body = format === 'generate' ? { ...fixture.body as object, model: generatePath.exec(fixture.path)![1] } : fixture.body
  return codecOf(format).request.decode(JSON.parse(JSON.stringify(body)))
}

/** What every format keeps of a conversation: system text, tool calls, tool results (by count), tool names. */
function essence(request: CanonicalRequest) {
  const parts = request.messages.flatMap(message => message.parts.map(part => ({ role: message.role, part })))
  return {
    system: parts.filter(({ role, part }) => role === 'system' && part.type === 'text').map(({ part }) => (part as { text: string }).text).join('\n\n').length > 0,
    calls: parts.filter(({ part }) => part.type === 'tool_call').length,
    results: parts.filter(({ part }) => part.type === 'tool_result').length,
    tools: request.tools?.map(tool => tool.name) ?? [],
  }
}

it('fixtures of every lab client are present', () => {
  expect(new Set(fixtures.map(fixture => fixture.client))).toEqual(new Set(['claude-code', 'codex', 'gemini-cli', 'opencode', 'qwen-code', 'openai', 'anthropic', 'genai', 'ai-openai', 'ai-anthropic', 'ai-google']))
})

describe.each([...fixtures, ...recorded].map(fixture => ({ name: `${fixture.client} ${fixture.version} ${fixture.case}`, fixture })))('$name', ({ fixture }) => {
  const format = formatOf(fixture)

  it('decodes in its own format, and crosses to every other one keeping system text, tools, calls and results', () => {
    const canonical = decode(fixture)
    expect(canonical.messages.length).toBeGreaterThan(0)
    for (const target of codecs.filter(codec => codec.format !== format)) {
      const wire = JSON.parse(JSON.stringify(target.request.encode(canonical)))
      const back = target.request.decode(target.format === 'generate' ? { ...wire, model: 'm' } : wire)
      expect(essence(back), `${format} -> ${target.format}`).toEqual(essence(canonical))
    }
  })

  describe('over HTTP', () => {
    it.each(families)('to a %s upstream: 200, a whole answer, and x-proxy-dropped names what the crossing lost', async (family) => {
      const model = familyModels[family]
      const path = format === 'generate' ? fixture.path.replace(generatePath, (match, _model, method) => match.replace(`${_model}:${method}`, `${model}:${method}`)) : fixture.path
      const body = format === 'generate' ? fixture.body : { ...fixture.body as object, model }
      const headers = Object.fromEntries(Object.entries(fixture.headers).map(([name, value]) => [name, value.replace(keyMarker, clientKey)]))
      const response = await fetch(`${setup.proxy.url}${path}`, { method: fixture.method, headers, body: JSON.stringify(body) })
      const text = await response.text()
      expect(response.status, text.slice(0, 500)).toBe(200)
      const stream = format === 'generate' ? path.includes('streamGenerateContent') : (body as { stream?: boolean }).stream === true
      const clientFormat: ClientFormat = format === 'generate' ? (path.includes('alt=sse') ? 'generate-sse' : 'generate-array') : format
      if (stream) expect(streamCompleted(clientFormat, text)).toBeUndefined()
      else expect(JSON.parse(text)).toBeTypeOf('object')
      const dropped = droppedFields(decode(fixture), format, familyFormat[family])
      expect(response.headers.get('x-proxy-dropped')).toBe(dropped.length ? dropped.join(',') : null)
      // A messages client's betas reach a beta upstream, unchanged; no other family sees them.
      const sent = setup.upstreams[family].requests.at(-1)!
      if (family === 'beta' && fixture.headers['anthropic-beta']) expect(sent.headers['anthropic-beta']).toBe(fixture.headers['anthropic-beta'])
      if (family !== 'beta') expect(sent.headers['anthropic-beta']).toBeUndefined()
    })
  })
})

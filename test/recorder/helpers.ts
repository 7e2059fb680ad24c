import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import type { MockUpstream } from '../helpers/mock-openai-server.ts'
import type { Storage } from 'unstorage'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

export const secret = 'recorder-admin'
export const clientKey = 'sk-recorder-client-0123456789'
export const upstreamKeys = ['up-compat-secret-aaaa-1111', 'up-compat-secret-bbbb-2222']

/** A proxy with the recorder on: a named client key, two compat credentials and one beta credential. */
export function recorderProxy(mocks: { compat: MockUpstream; beta: MockUpstream }, recorder: Record<string, unknown>, storage?: Storage, extra: Record<string, unknown> = {}): Promise<TestProxy> {
  return startTestProxy({
    'client-keys': [{ key: clientKey, name: 'team-a' }],
    'remote-management': { 'secret-key': secret },
    'request-retry': 1,
    'compat-provider': [{ name: 'mock-compat', 'base-url': `${mocks.compat.url}/v1`, 'api-key-entries': upstreamKeys.map(key => ({ 'api-key': key })), models: [{ name: 'mock-gpt', alias: 'via-compat' }] }],
    'beta-api-key': [{ 'api-key': 'up-beta-secret-cccc-3333', 'base-url': mocks.beta.url, models: [{ name: 'mock-claude', alias: 'via-beta' }] }],
    recorder,
    ...extra,
  }, [], storage)
}

/** A management call: JSON in, JSON out, with its status. */
export async function manage(proxy: TestProxy, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${proxy.url}/v0/management${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${secret}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: await response.json(), headers: response.headers }
}

/** Polls `check` until it returns something (records from another instance arrive within a flush). */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error('timed out')
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** The compat upstream fails every tool turn: a 429 on the first key (a cooldown), a 500 echoing the key it got on the second. */
export const failingToolTurns = async (request: Request) => {
  const body = await request.clone().json().catch(() => ({})) as { messages?: Array<{ role: string }> }
  if (!body.messages?.some(message => message.role === 'tool')) return openaiMock(request)
  const auth = request.headers.get('authorization') ?? ''
  const json = (status: number, message: string) => new Response(JSON.stringify({ error: { message, type: 'server_error' } }), { status, headers: { 'content-type': 'application/json' } })
  return auth.includes(upstreamKeys[0]!) ? json(429, 'rate limit reached for requests') : json(500, `tool turn broke the upstream (it was sent ${auth})`)
}

/** A messages tool turn: the tool's result goes back to the model (the turn the compat upstream fails). */
export const toolTurn = {
  max_tokens: 100,
  tools: [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } }],
  messages: [
    { role: 'user' as const, content: 'weather in Oslo?' },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] },
    { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'snow, -3C' }] },
  ],
}

import { startMockUpstream, type MockUpstream } from './mock-openai-server.ts'
import { startTestProxy, type TestProxy } from './proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { deltaMock } from '../../playground/mock-upstream/delta.ts'

/** Client model names, one per upstream family, all served by the mocks. */
export const familyModels = { compat: 'via-compat', beta: 'via-beta', gamma: 'via-gamma', alpha: 'via-alpha', delta: 'via-delta' } as const
export type Family = keyof typeof familyModels
/** Upstream families the matrix runs against (MATRIX_FAMILIES=compat,beta narrows it). */
export const families = (process.env.MATRIX_FAMILIES?.split(',') ?? ['compat', 'gamma', 'beta', 'alpha', 'delta']) as Family[]

export interface FamilyProxy { proxy: TestProxy; upstreams: Record<Family, MockUpstream>; close(): Promise<void> }

export const clientKey = 'sk-matrix'

/** One proxy with a mock upstream of every family behind it; `keys` are accepted besides `clientKey`. */
export async function startFamilyProxy({ keys = [] }: { keys?: string[] } = {}): Promise<FamilyProxy> {
  const [compat, beta, gamma, alpha, delta] = await Promise.all([openaiMock, messagesMock, responsesMock, generateMock, deltaMock].map(handler => startMockUpstream(handler)))
  const upstreams = { compat: compat!, beta: beta!, gamma: gamma!, alpha: alpha!, delta: delta! }
  const proxy = await startTestProxy({
    'api-keys': [clientKey, ...keys],
    'compat-provider': [{ name: 'mock-compat', 'base-url': `${compat!.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-compat' }], models: [{ name: 'mock-gpt', alias: familyModels.compat }] }],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': beta!.url, models: [{ name: 'mock-claude', alias: familyModels.beta }] }],
    'gamma-api-key': [{ 'api-key': 'up-gamma', 'base-url': `${gamma!.url}/v1`, models: [{ name: 'mock-codex', alias: familyModels.gamma }] }],
    'alpha-api-key': [{ 'api-key': 'up-alpha', 'base-url': alpha!.url, models: [{ name: 'mock-gemini', alias: familyModels.alpha }] }],
    // delta serves alpha's catalog too: hidden here so catalog names (gemini-2.5-pro...) keep going to alpha.
    'delta-api-key': [{ 'api-key': 'up-delta', 'base-url': delta!.url, models: [{ name: 'mock-gemini', alias: familyModels.delta }], 'excluded-models': ['gemini-*'] }],
  })
  return {
    proxy,
    upstreams,
    async close() {
      await proxy.close()
      await Promise.all(Object.values(upstreams).map(upstream => upstream.close()))
    },
  }
}

export const greeting = (said: string) => `Hello from the playground mock upstream. You said: ${said}`

import type { ProxyKernel, Candidate, WireFormat } from 'model-proxy'
import { clientKeyId } from 'model-proxy/kit/access'
import { ownValue } from 'model-proxy/kit/guards'
import type { Chooser } from '../routing/api.ts'
import { resolveRoute, sessionKeyOf, AffinityStore, headroom } from '../routing/api.ts'
import { explainPreview } from './explain.ts'

const formats: WireFormat[] = ['chat', 'messages', 'responses', 'generate']

/** A request body's wire format when the caller does not say: generateContent `contents`, Responses `input`, messages' top-level `system`/`max_tokens` without system messages, else chat. */
export function guessFormat(body: Record<string, unknown>): WireFormat {
  if (Array.isArray(body.contents)) return 'generate'
  if (body.input !== undefined && body.messages === undefined) return 'responses'
  const messages = Array.isArray(body.messages) ? body.messages as Array<{ role?: unknown }> : []
  if (body.system !== undefined || body.thinking !== undefined || (typeof body.max_tokens === 'number' && !messages.some(m => m.role === 'system' || m.role === 'developer'))) return 'messages'
  return 'chat'
}

export interface PreviewInput { request: Record<string, unknown>; format?: string; headers?: Record<string, string>; clientKey?: string }

/** What `POST /route-preview` answers: the rule, the model and candidates a request would get, and its session. */
export async function previewRoute(kernel: ProxyKernel, chooser: Chooser, input: PreviewInput) {
  const format = formats.includes(input.format as WireFormat) ? input.format as WireFormat : guessFormat(input.request)
  const model = typeof input.request.model === 'string' ? input.request.model : ''
  const headers = new Headers(input.headers ?? {})
  const codec = kernel.formats.get(format)!
  let canonical: ReturnType<typeof codec.request.decode> | undefined
  const who = previewKey(kernel, input.clientKey)
  const refusal = (candidate: string) => who.key && kernel.services.clientKeys?.modelRefusal?.(who.key, candidate)
  const resolution = await resolveRoute(kernel, {
    model, inbound: format, body: input.request, headers, clientKey: who.key?.value, clientKeyName: () => who.key?.name, modelRefusal: refusal, canonical: () => canonical ??= codec.request.decode(input.request),
  })
  const describe = (candidate: Candidate) => {
    const state = chooser.state.availability(candidate)
    const windows = chooser.state.record(candidate.credential.id)?.windows
    return {
      credential: candidate.credential.id, provider: candidate.credential.provider, family: candidate.credential.family,
      'upstream-model': candidate.upstreamModel, priority: candidate.credential.priority,
      state: state === true ? 'ready' : state === false ? 'blocked' : 'cooldown',
      ...(typeof state === 'number' && { 'ready-at': new Date(state).toISOString() }),
      ...(windows && { headroom: Math.round(headroom(windows).free * 1000) / 1000 }),
    }
  }
  const chain = ownValue(kernel.config.fallbacks, model) ?? ownValue(kernel.config.fallbacks, resolution.model) ?? []
  const mode = kernel.config.routing['session-affinity']
  const found = mode === 'off' ? undefined : sessionKeyOf({ body: input.request, inbound: format, model: resolution.model, headers })
  const binding = found && await chooser.affinity.get(AffinityStore.hash(found.key))
  const candidates = resolution.candidates.map(describe)
  const fallbacks = chain.filter(m => m !== resolution.model).map((m) => {
    const skipped = refusal(m)
    return { model: m, candidates: (kernel.models.get(m) ?? []).map(describe), ...(skipped && { skipped }) }
  })
  return {
    explanation: explainPreview({ model, servedModel: resolution.model, rule: resolution.rule?.name, candidates, fallbacks, strategy: kernel.config.routing.strategy }),
    model,
    format,
    rule: resolution.rule ? { index: resolution.rule.index, name: resolution.rule.name, model: resolution.rule.rule.model, ...(resolution.rule.tokens !== undefined && { tokens: resolution.rule.tokens }) } : null,
    ...(resolution.skipped && { skipped: resolution.skipped }),
    ...(who.view && { 'client-key': who.view }),
    'served-model': resolution.model,
    ...(refusal(resolution.model) && { refused: refusal(resolution.model) }),
    strategy: kernel.config.routing.strategy,
    candidates,
    fallbacks,
    session: found ? { source: found.source, 'session-affinity': mode, 'bound-credential': binding ? binding.credential : null } : null,
  }
}

/**
 * The preview's client key: a key as a client sends it (a named key is then known by its name, a plain
 * `api-keys` entry by its id), or a named key's name. Never echoed back.
 */
function previewKey(kernel: ProxyKernel, sent: string | undefined): { key?: { value?: string; name?: string }; view?: Record<string, string> } {
  if (!sent) return {}
  const keys = kernel.services.clientKeys
  const name = keys?.nameOf(sent)
  if (name !== undefined) return { key: { value: sent, name }, view: { kind: 'named', name } }
  if (kernel.config['api-keys'].includes(sent)) return { key: { value: sent }, view: { kind: 'plain', id: clientKeyId(sent) } }
  if (keys?.hasName?.(sent)) return { key: { name: sent }, view: { kind: 'named', name: sent } }
  return { key: { value: sent }, view: { kind: 'unknown', id: clientKeyId(sent) } }
}

/** Every credential's routing state: cooldowns, quota windows and the live sessions it holds here. */
export function routingOverview(kernel: ProxyKernel, chooser: Chooser) {
  const shares = chooser.affinity.shares()
  return {
    strategy: kernel.config.routing.strategy,
    'session-affinity': kernel.config.routing['session-affinity'],
    'session-affinity-ttl': kernel.config.routing['session-affinity-ttl'],
    credentials: kernel.credentials.map((credential) => {
      const record = chooser.state.record(credential.id)
      return {
        id: credential.id, provider: credential.provider, family: credential.family,
        state: chooser.state.stateOf(credential.id),
        sessions: shares.get(credential.id) ?? 0,
        windows: record?.windows ?? {},
        headroom: Math.round(headroom(record?.windows).free * 1000) / 1000,
      }
    }),
  }
}

import type { ProxyKernel, WireFormat } from 'model-proxy'
import { trustedClient } from 'model-proxy/kit/access'
import { ManagementError } from '../management/api.ts'
import { pathWithoutKey, wholeBody } from './fixture.ts'
import { replayCredentialMark, replayOfMark } from './flight.ts'
import type { FlightRecord } from './types.ts'

export interface ReplayOptions { model?: string; credential?: string }

/** Client headers a replay does not send again: transport, the masked key, the old request id. */
const notResent = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding', 'x-request-id', 'cookie', 'authorization', 'x-api-key', 'x-goog-api-key'])

/** `{model?, credential?}` from a replay's body (an empty body replays as it was). */
export function replayOptions(body: unknown): ReplayOptions {
  if (body === undefined || body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) throw new ManagementError(400, 'invalid body', { message: 'expected {model?, credential?}' })
  const { model, credential } = body as Record<string, unknown>
  for (const [name, value] of Object.entries({ model, credential })) {
    if (value !== undefined && (typeof value !== 'string' || !value)) throw new ManagementError(400, 'invalid body', { message: `${name} must be a non-empty string` })
  }
  return { ...(model !== undefined && { model: model as string }), ...(credential !== undefined && { credential: credential as string }) }
}

/** The recorded client request, rebuilt for the proxy's own app (another model or credential when asked). */
export function replayRequest(kernel: ProxyKernel, record: FlightRecord, options: ReplayOptions, id: string): Request {
  const recorded = record.client.request
  const whole = wholeBody(recorded.body)
  if ('error' in whole) throw new ManagementError(409, 'cannot replay', { message: whole.error })
  if (!whole.value || typeof whole.value !== 'object' || Array.isArray(whole.value)) throw new ManagementError(409, 'cannot replay', { message: 'the client body is not a JSON object' })
  let path = pathWithoutKey(recorded.path)
  const body = { ...whole.value as Record<string, unknown> }
  const model = options.model ?? record.model
  if (options.model) {
    // A format that names the model in its URL (`/models/<model>:<method>`) gets it there.
    if (kernel.formats.get(record.format as WireFormat)?.modelIn === 'url') path = path.replace(`/${record.model}:`, `/${encodeURIComponent(options.model)}:`).replace(`/${encodeURIComponent(record.model)}:`, `/${encodeURIComponent(options.model)}:`)
    else body.model = options.model
  }
  if (options.credential) {
    if (!kernel.credentials.some(credential => credential.id === options.credential)) throw new ManagementError(400, 'unknown credential', { message: `no credential ${JSON.stringify(options.credential)}` })
    if (!kernel.models.get(model)?.some(candidate => candidate.credential.id === options.credential)) throw new ManagementError(400, 'credential does not serve the model', { message: `credential ${options.credential} does not serve ${model}` })
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(recorded.headers)) if (!notResent.has(name.toLowerCase())) headers[name] = value
  headers['content-type'] = 'application/json'
  headers['x-request-id'] = id
  const request = new Request(new URL(path, 'http://proxy.internal'), { method: recorded.method, headers, body: JSON.stringify(body) })
  // In-process and already authorized (the operator asked through the management API): no client key.
  trustedClient.set(request, true)
  replayOfMark.set(request, record.id)
  if (options.credential) replayCredentialMark.set(request, options.credential)
  return request
}

/** Sends a replay through the proxy's own pipeline and reads its answer to the end (the recorder keeps it). */
export async function sendReplay(kernel: ProxyKernel, request: Request): Promise<number> {
  const response = await kernel.app.fetch(request)
  await response.text()
  return response.status
}

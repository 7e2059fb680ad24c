import { getRequestIP, type H3Event } from 'h3'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { clientKeyId, readClientKey } from './client-key.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { shownModelName } from '../models/shown-name.ts'
import { defineObjectState } from '../kernel/request-state.ts'

/** On an in-process Request: `true` or the key, authorized; a `SocketPeer` (a WebSocket's), checked each call so a revoked key stops. */
export const trustedClient = defineObjectState<Request, string | true | SocketPeer>('trusted-client', { shared: true })

/** What the WebSocket upgrade request told about its client. */
export interface SocketPeer { key: string | undefined; ip: string | undefined; headers: Headers }

export const isLoopback = (ip: string | undefined) => ip !== undefined && (ip.startsWith('127.') || ip === '::1' || ip === '::ffff:127.0.0.1')

/** A request a browser sent for another site's page (`Sec-Fetch-Site`, `Origin`); curl and SDKs send neither. */
export function isCrossSiteBrowserRequest(headers: Headers): boolean {
  const site = headers.get('sec-fetch-site')
  if (site) return site !== 'same-origin' && site !== 'none'
  const origin = headers.get('origin')
  if (origin === null) return false
  const url = URL.parse(origin)
  return url === null || url.host !== headers.get('host') // no URL: `Origin: null`, a sandboxed frame or a file:// page
}

/** A Host header naming this machine; any other name reached a loopback socket through DNS rebinding. */
export function isLoopbackHost(host: string | null): boolean {
  if (!host) return true
  const name = (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')).toLowerCase()
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || name === '[::ffff:127.0.0.1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
}

/** Any client key at all: `api-keys`, or a plugin's named keys (`client-keys`). */
const hasClientKeys = (kernel: ProxyKernel) => kernel.config['api-keys'].length > 0 || kernel.services.clientKeys?.configured() === true

/** The client-key rule: a configured key, or with none a loopback client that is no other site's page; throws the 401/403. */
export function checkClientAccess(kernel: ProxyKernel, sent: string | undefined, ip: () => string | undefined, headers: Headers): string | undefined {
  if (!hasClientKeys(kernel)) {
    if (!isLoopback(ip())) throw new ProxyError(401, 'no client API keys are configured: only local clients may connect', 'authentication_error', 'invalid_api_key')
    // Without keys the proxy cannot tell the operator's tools from a page the operator happens to visit.
    if (isCrossSiteBrowserRequest(headers) || !isLoopbackHost(headers.get('host'))) {
      throw new ProxyError(403, 'no client API keys are configured: requests from web pages of other sites (or through another host name) are refused; set api-keys to serve browsers', 'permission_error', 'cross_site_request')
    }
    return sent
  }
  if (!sent) throw new ProxyError(401, 'missing API key: send it as Authorization: Bearer <key> (or x-api-key, x-goog-api-key, ?key=)', 'authentication_error', 'invalid_api_key')
  const match = kernel.matchClientKey(sent)
  if (!match) throw new ProxyError(401, 'invalid API key', 'authentication_error', 'invalid_api_key')
  const refusal = kernel.services.clientKeys?.refusal(match)
  if (refusal) throw new ProxyError(401, refusal, 'authentication_error', 'invalid_api_key')
  return match
}

/** Client-key check of a client endpoint; with no keys only loopback clients (never an open relay on a public interface). */
export function authorizeClient(kernel: ProxyKernel, event: H3Event): string | undefined {
  const trusted = trustedClient.get(event.req)
  if (trusted === true) return undefined
  if (trusted) return typeof trusted === 'string' ? trusted : checkClientAccess(kernel, trusted.key, () => trusted.ip, trusted.headers)
  const sent = readClientKey(event.req.headers, event.url)
  try {
    return checkClientAccess(kernel, sent, () => getRequestIP(event), event.req.headers)
  } catch (error) {
    const why = (error as ProxyError).status === 403 ? 'a web page of another site'
      : !hasClientKeys(kernel) ? 'no api-keys configured and not a local client'
      : sent ? `${kernel.matchClientKey(sent) ? 'refused' : 'unknown'} key ${kernel.services.clientKeys?.nameOf(sent) ?? clientKeyId(sent)}` : 'no key'
    kernel.warnLimited('client-key', `client refused: ${why} from ${getRequestIP(event) ?? 'unknown'} on ${event.req.method} ${event.url.pathname}`)
    throw error
  }
}

/** Endpoints that answer without routing (token counts) hold the key to its models as routing does: another is its 403. */
export function checkModelAllowed(kernel: ProxyKernel, clientKey: string | undefined, model: string): void {
  if (clientKey === undefined || kernel.services.clientKeys?.allowsModel(clientKey, model) !== false) return
  throw new ProxyError(403, `this API key may not use model ${JSON.stringify(shownModelName(model))}`, 'permission_error', 'model_not_allowed')
}

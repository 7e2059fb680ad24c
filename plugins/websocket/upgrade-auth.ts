import type { ProxyKernel } from '../../core/kernel.ts'
import { readClientKey } from '../../core/client-key.ts'
import { isLoopback } from '../../core/http/client-route.ts'

/** Check the client key on the upgrade request (header or `?key=`); throws a 401 Response to refuse. */
export function authorizeUpgrade(kernel: ProxyKernel, request: Request): string | undefined {
  const sent = readClientKey(request.headers, new URL(request.url))
  const keys = kernel.config['api-keys']
  if (!keys.length && isLoopback((request as { ip?: string }).ip)) return sent
  const match = kernel.matchClientKey(sent)
  if (!match) throw new Response(JSON.stringify({ error: { message: sent ? 'invalid API key' : 'missing API key', type: 'authentication_error', code: 'invalid_api_key' } }), { status: 401, headers: { 'content-type': 'application/json' } })
  return match
}

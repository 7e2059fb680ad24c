import { getRequestIP, type H3Event } from 'h3'
import { type ProxyKernel, ProxyError } from 'model-proxy'
import { authorizeClient } from 'model-proxy/kit/access'
import { partnerOf } from './config.ts'

/** Spec: "reachable only from 127.0.0.1 or ::1" (the IPv4-mapped form is the same peer on a dual-stack socket). */
const localAddresses = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** The client's address as access rules see it: a plugin may override it (trusted reverse proxy). */
export const clientAddressOf = (kernel: ProxyKernel, event: H3Event): string => kernel.services.clientAddress?.(event) ?? getRequestIP(event) ?? ''

/**
 * Partner route access: with `restrict-management-to-localhost` a non-local client gets 403 before
 * anything else; then the same client-key check as the `/v1` routes (401). Returns the client key.
 */
export function authorizePartnerClient(kernel: ProxyKernel, event: H3Event, localOnly: boolean): string | undefined {
  if (localOnly && partnerOf(kernel.config)['restrict-management-to-localhost'] && !localAddresses.has(clientAddressOf(kernel, event))) {
    throw new ProxyError(403, 'partner management routes are restricted to localhost (partner.restrict-management-to-localhost)', 'permission_error', 'forbidden')
  }
  return authorizeClient(kernel, event)
}

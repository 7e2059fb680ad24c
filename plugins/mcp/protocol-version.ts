import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { rpcError } from './rpc-error.ts'

/** The first revision of the stateless era: a request naming it or a later one is served by the SDK 2 handler. */
export const firstModern = '2026-07-28'

/** Every revision `/mcp` speaks, newest first: the stateless one, then the 2025 era's (the SDK's list). */
export const supportedVersions: readonly string[] = [firstModern, ...SUPPORTED_PROTOCOL_VERSIONS]

/** The header that names a request's protocol revision. */
export const versionHeader = 'mcp-protocol-version'

/** JSON-RPC `UnsupportedProtocolVersion` (revision 2026-07-28): its data lists the supported revisions. */
const unsupportedVersion = -32022

/**
 * The 400 for a request whose `MCP-Protocol-Version` names no revision the gateway speaks (a malformed
 * value, an unknown date), or undefined. The transport spec makes it a 400, and the error's data lets a
 * client pick a revision and retry. An absent header is no error: the 2025 transport then assumes
 * 2025-03-26 (or what the session negotiated), as the spec says. Checked before the era is chosen: a
 * lexicographic `>= 2026-07-28` would take `garbage` for a newer revision.
 */
export function versionRefusal(header: string | null, id: string | number | null = null): Response | undefined {
  if (header === null || supportedVersions.includes(header)) return undefined
  return rpcError(400, unsupportedVersion, `Bad Request: Unsupported protocol version: ${header} (supported versions: ${supportedVersions.join(', ')})`, { supported: supportedVersions, requested: header }, id)
}

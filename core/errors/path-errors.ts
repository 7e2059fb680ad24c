import type { ProxyErrorInfo, WireFormat } from '../canonical/codec.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { genericErrorBody } from './proxy-error.ts'
import { jsonResponse } from '../edge/respond.ts'

/** The error format of a path no route answered (a wrong method, bytes the HTTP parser refused): its clients' format. */
function errorFormatOfPath(path: string): WireFormat | 'management' | undefined {
  if (path.startsWith('/v0/management')) return 'management'
  if (path.startsWith('/v1/messages')) return 'messages'
  // genai 3 calls `/v1/models/{model}:{method}`: the generateContent format under OpenAI's `/v1`.
  if (path.startsWith('/v1beta/') || (path.startsWith('/v1/models/') && path.includes(':', 11))) return 'generate'
  if (path.startsWith('/v1/')) return 'chat'
  // Under a prefix (a plugin's alias routes, `/<prefix>/v1/messages`).
  const inner = path.search(/\/v1[a-z]*\//)
  return inner > 0 ? errorFormatOfPath(path.slice(inner)) : undefined
}

/** The error body for `path`: a codec's, the management API's `{error}`, or the spec's generic one. */
export function pathErrorBody(kernel: ProxyKernel, path: string, info: ProxyErrorInfo): unknown {
  const format = errorFormatOfPath(path)
  if (format === 'management') return { error: info.message }
  const codec = format ? kernel.formats.get(format) : undefined
  return codec ? codec.error.encode(info) : genericErrorBody(info)
}

export const pathErrorResponse = (kernel: ProxyKernel, path: string, info: ProxyErrorInfo, headers?: Record<string, string>): Response =>
  jsonResponse(pathErrorBody(kernel, path, info), info.status, headers)

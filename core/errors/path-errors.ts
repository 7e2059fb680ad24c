import type { Server as HttpServer, IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
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

/** Node's parser error codes -> what the client is told. */
function describe(code: string | undefined): [number, string, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', 'the request headers are too large']
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADERS_TIMEOUT') return [408, 'Request Timeout', 'the request did not arrive in time']
  if (code === 'HPE_INVALID_METHOD') return [400, 'Bad Request', 'unknown HTTP method (methods are upper case: POST, GET...)']
  return [400, 'Bad Request', 'the request is not valid HTTP/1.1']
}

/** The path of the request line in what the parser had read, when there is one. */
const pathOf = (raw: Buffer | undefined) => /^[^\s]*\s+(\/[^\s?]*)/.exec(raw?.subarray(0, 8192).toString('latin1') ?? '')?.[1] ?? '/'

/** What Node's HTTP parser refuses, and CONNECT, answered with `bodyFor` the path named (path-errors.ts); the connection closes after it. */
export function answerProtocolErrors(node: HttpServer, bodyFor: (path: string, info: ProxyErrorInfo) => unknown): void {
  const answer = (socket: Duplex, path: string, status: number, reason: string, message: string, code: string) => {
    const body = JSON.stringify(bodyFor(path, { status, message, type: 'invalid_request_error', code }))
    socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n${body}`)
  }
  node.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [status, reason, message] = describe(error.code)
    answer(socket, pathOf(error.rawPacket), status, reason, message, 'bad_request')
  })
  node.on('connect', (request: IncomingMessage, socket: Duplex) => {
    answer(socket, request.url?.startsWith('/') ? request.url : '/', 405, 'Method Not Allowed', `CONNECT ${request.url ?? ''} is not supported: this is not a forward proxy`, 'method_not_allowed')
  })
}

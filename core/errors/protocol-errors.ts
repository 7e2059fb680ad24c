import type { Server as HttpServer, IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ProxyErrorInfo } from '../canonical/codec.ts'

/** The error body for a path (path-errors.ts, through the app served). */
export type PathErrorBody = (path: string, info: ProxyErrorInfo) => unknown

/** A raw HTTP/1.1 answer with the path's error body; the connection closes after it. */
function rawError(bodyFor: PathErrorBody, path: string, status: number, reason: string, message: string, code: string): string {
  const body = JSON.stringify(bodyFor(path, { status, message, type: 'invalid_request_error', code }))
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n${body}`
}

/** Node's parser error codes -> what the client is told. */
function describe(code: string | undefined): [number, string, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', 'the request headers are too large']
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADERS_TIMEOUT') return [408, 'Request Timeout', 'the request did not arrive in time']
  if (code === 'HPE_INVALID_METHOD') return [400, 'Bad Request', 'unknown HTTP method (methods are upper case: POST, GET...)']
  return [400, 'Bad Request', 'the request is not valid HTTP/1.1']
}

/** The path of the request line in what the parser had read, when there is one. */
const pathOf = (raw: Buffer | undefined) => /^[^\s]*\s+(\/[^\s?]*)/.exec(raw?.subarray(0, 8192).toString('latin1') ?? '')?.[1] ?? '/'

/** What Node's HTTP parser refuses, and CONNECT, answered with a JSON error in the format of the path named. */
export function answerProtocolErrors(node: HttpServer, bodyFor: PathErrorBody): void {
  node.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [status, reason, message] = describe(error.code)
    socket.end(rawError(bodyFor, pathOf(error.rawPacket), status, reason, message, 'bad_request'))
  })
  node.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.end(rawError(bodyFor, request.url?.startsWith('/') ? request.url : '/', 405, 'Method Not Allowed', `CONNECT ${request.url ?? ''} is not supported: this is not a forward proxy`, 'method_not_allowed'))
  })
}

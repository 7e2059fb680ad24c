import type { H3Event } from 'h3'
import type { WireFormat } from '../canonical/codec.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { authorizeClient } from './client-access.ts'
import { bodyTooLarge, ProxyError } from '../errors/proxy-error.ts'
import { ClientBody, parseJsonObject } from '../json/index.ts'
import { errorResponse, toErrorInfo } from '../pipeline/error-response.ts'
import { decodeBody } from './body-encoding.ts'

/** A client that hangs up mid-body ('aborted', a close with no 'end', a web body that errors): its fault, not a server error. */
const incompleteBody = () => new ProxyError(400, 'the client closed the connection before the body ended', 'invalid_request_error', 'incomplete_body')

type NodeBody = NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean; complete?: boolean }

/** A Node request's body, collected from its events (an async iterator costs more than the parse). */
function readNodeBody(source: NodeBody, limit: number, declared: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit && !(declared > limit)) chunks.push(chunk)
    }
    const cleanup = () => {
      source.removeListener('data', onData)
      source.removeListener('end', onEnd)
      source.removeListener('error', onError)
      source.removeListener('close', onClose)
    }
    const onEnd = () => {
      cleanup()
      if (size > limit || declared > limit) return reject(bodyTooLarge(limit))
      resolve(chunks.length === 1 ? chunks[0] : chunks.length ? Buffer.concat(chunks, size) : undefined)
    }
    const onError = () => { cleanup(); reject(incompleteBody()) }
    const onClose = () => source.complete ? onEnd() : onError()
    source.on('data', onData)
    source.once('end', onEnd)
    source.once('error', onError)
    source.once('close', onClose)
  })
}

/** The body's bytes; one over `max-request-body-mb` is read to its end unkept and refused (a clean 413, not a reset). */
async function readBodyBytes(event: H3Event): Promise<Buffer> {
  const limit = event.context.maxBodyBytes ?? Number.POSITIVE_INFINITY
  const declared = Number(event.req.headers.get('content-length') ?? Number.NaN)
  // On Node the IncomingMessage itself: srvx's web stream around it costs more than the parse.
  const nodeRequest = (event.req as { runtime?: { node?: { req?: NodeBody } } }).runtime?.node?.req
  const encoding = event.req.headers.get('content-encoding')
  if (nodeRequest && !nodeRequest.readableEnded && !nodeRequest.destroyed) return decodeBody((await readNodeBody(nodeRequest, limit, declared)) ?? empty, encoding, limit)
  const source = event.req.body as unknown as AsyncIterable<Uint8Array> | null
  if (!source) return empty
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of source) {
      size += chunk.length
      if (size <= limit && !(declared > limit)) chunks.push(chunk)
    }
  } catch { throw incompleteBody() }
  if (size > limit || declared > limit) throw bodyTooLarge(limit)
  return decodeBody(Buffer.concat(chunks), encoding, limit)
}

const empty = Buffer.alloc(0)

/** A JSON body, read whole and parsed only when needed; `scope`: the client key. */
export const readClientBody = async (event: H3Event, scope?: string): Promise<ClientBody> => new ClientBody(await readBodyBytes(event), scope)

/** Parse a JSON object body; malformed or non-object bodies are the client's 400. */
export const readJsonObject = async (event: H3Event): Promise<Record<string, unknown>> => parseJsonObject(await readBodyBytes(event))

export interface ClientRoute {
  method: 'GET' | 'POST'
  path: string
  /** The endpoint's wire format, which errors come back in (a function when the client decides, as on `/v1/models`). */
  format: WireFormat | ((event: H3Event) => WireFormat)
  handler(event: H3Event, clientKey: string | undefined): Promise<Response> | Response
}

/** Register a client endpoint: key check, then the handler; a failure is an error in the endpoint's format. */
export function addClientRoute(kernel: ProxyKernel, route: ClientRoute): void {
  kernel.app.on(route.method, route.path, async (event) => {
    try {
      // Draining: what already runs finishes, nothing new starts (the client may retry elsewhere).
      if (kernel.services.draining) throw new ProxyError(503, 'the server is shutting down: send the request again (to another instance)', 'server_error', 'shutting_down')
      return await route.handler(event, authorizeClient(kernel, event))
    } catch (error) {
      const info = toErrorInfo(error)
      if (info.status >= 500) kernel.logger.error(`${route.method} ${route.path}:`, error)
      return errorResponse(kernel, typeof route.format === 'function' ? route.format(event) : route.format, info)
    }
  })
}

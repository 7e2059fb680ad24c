import { Readable } from 'node:stream'
import type { H3Event } from 'h3'

type NodeRequestLike = NodeJS.ReadableStream & { headers: Record<string, string | string[] | undefined>; readableEnded?: boolean; destroyed?: boolean; socket?: unknown }
type NodeRuntime = { runtime?: { node?: { req?: NodeRequestLike; res?: unknown } } }

/**
 * The body of a Node request, read whole, with the request left as if unread: the route behind reads
 * the same bytes from a stand-in stream (same headers and socket; `complete`, so it never looks like a
 * client that hung up). Undefined when the request is not a Node one (nothing is read then).
 */
export async function peekNodeBody(event: H3Event): Promise<Buffer | undefined> {
  const node = (event.req as NodeRuntime).runtime?.node
  const source = node?.req
  if (!node || !source || source.readableEnded || source.destroyed) return undefined
  const chunks: Buffer[] = []
  for await (const chunk of source as AsyncIterable<Buffer>) chunks.push(chunk)
  const bytes = Buffer.concat(chunks)
  const standIn = Readable.from(bytes.length ? [bytes] : []) as Readable & Record<string, unknown>
  Object.assign(standIn, { headers: source.headers, socket: source.socket, complete: true, method: (source as { method?: string }).method, url: (source as { url?: string }).url })
  node.req = standIn as unknown as NodeRequestLike
  return bytes
}

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One span as an OTLP/HTTP JSON export carries it, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  status: { code?: number; message?: string }
  attributes: Record<string, unknown>
  events: Array<{ name: string; attributes: Record<string, unknown> }>
  service: unknown
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string
  spans: ReceivedSpan[]
  /** Paths that were posted to. */
  paths: string[]
  /** What the receiver answers (a collector that is down answers 503). */
  status: number
  close(): Promise<void>
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: AnyValue[] } }
type KeyValue = { key: string; value: AnyValue }

const valueOf = (value: AnyValue): unknown => {
  if (value.stringValue !== undefined) return value.stringValue
  if (value.intValue !== undefined) return Number(value.intValue)
  if (value.boolValue !== undefined) return value.boolValue
  if (value.doubleValue !== undefined) return value.doubleValue
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf)
  return undefined
}
const flatten = (list: KeyValue[] = []) => Object.fromEntries(list.map(entry => [entry.key, valueOf(entry.value)]))

/** A local OTLP/HTTP collector on a random loopback port that decodes JSON trace exports. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = { url: '', spans: [], paths: [], status: 200, close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()) }) }
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    receiver.paths.push(req.url!)
    if (receiver.status !== 200) {
      res.writeHead(receiver.status).end()
      return
    }
    if (!String(req.headers['content-type']).includes('json')) throw new Error(`expected a JSON export, got ${req.headers['content-type']}`)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = flatten(resourceSpans.resource?.attributes)['service.name']
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          receiver.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            status: span.status ?? {},
            attributes: flatten(span.attributes),
            events: (span.events ?? []).map((event: { name: string; attributes?: KeyValue[] }) => ({ name: event.name, attributes: flatten(event.attributes) })),
            service,
          })
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return receiver
}

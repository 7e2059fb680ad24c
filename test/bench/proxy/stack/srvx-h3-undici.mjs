// Stack floor 3: the proxy's own stack doing nothing but forwarding: srvx serving an h3 app, the body read
// from the IncomingMessage, undici's client, the answer handed back as a web ReadableStream, or with
// ANSWER=node as the undici body itself, a Node Readable srvx pipes into the ServerResponse (as the
// proxy's streams are). What is left between this and the proxy is the proxy's own work.
import { serve, FastResponse } from 'srvx'
import { H3 } from 'h3'
import { Agent } from 'undici'
import { readWhole, upstreamHeaders } from './shared.mjs'

const origin = new URL(process.env.UPSTREAM).origin
const agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 })
const nodeAnswer = process.env.ANSWER === 'node'

/** The undici body as a web stream, read chunk by chunk. */
function webStream(body) {
  const chunks = body[Symbol.asyncIterator]()
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
    cancel() { body.destroy() },
  })
}

const app = new H3()
app.post('/v1/messages', async (event) => {
  const req = event.req.runtime.node.req
  const body = await readWhole(req)
  const answer = await agent.request({ origin, path: '/v1/messages', method: 'POST', headers: upstreamHeaders(req, body), body })
  // A client that goes away mid-stream aborts the upstream body: its error must not be unhandled.
  answer.body.on('error', () => {})
  return new FastResponse(nodeAnswer ? answer.body : webStream(answer.body), { status: answer.statusCode, headers: { 'content-type': answer.headers['content-type'] ?? 'text/event-stream' } })
})
const server = serve({ fetch: request => app.fetch(request), port: 0, hostname: '127.0.0.1', silent: true })
await server.ready()
console.log(`listening on http://127.0.0.1:${server.node.server.address().port}`)

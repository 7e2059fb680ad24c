// Stack floor 2b: as node-undici.mjs, with undici's lower-level `dispatch` (handler callbacks) instead of
// `request` (a RequestHandler, an AsyncResource and a BodyReadable per request).
import { createServer } from 'node:http'
import { Agent } from 'undici'
import { readWhole, upstreamHeaders } from './shared.mjs'

const origin = new URL(process.env.UPSTREAM).origin
const agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 })
createServer(async (req, res) => {
  const body = await readWhole(req)
  agent.dispatch({ origin, path: req.url, method: 'POST', headers: upstreamHeaders(req, body), body }, {
    onRequestStart() {},
    onResponseStart(_controller, statusCode, headers) {
      res.writeHead(statusCode, { 'content-type': headers['content-type'] ?? 'text/event-stream' })
    },
    onResponseData(controller, chunk) {
      if (!res.write(chunk)) {
        controller.pause()
        res.once('drain', () => controller.resume())
      }
    },
    onResponseEnd() { res.end() },
    onResponseError() { res.destroy() },
  })
}).listen(0, '127.0.0.1', function () { console.log(`listening on http://127.0.0.1:${this.address().port}`) })

// Bench mock upstream: fixed small replies, and a 64-delta stream (optionally dripped slowly).
import { createServer } from 'node:http'

const chatReply = JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion', created: 1, model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 } })
const messagesReply = JSON.stringify({ id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench', content: [{ type: 'text', text: 'Hello from the bench upstream.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 7 } })
const chatChunk = i => `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":"tok${i} "},"finish_reason":null}]}\n\n`
const chatFrames = [...Array.from({ length: 64 }, (_, i) => chatChunk(i)), 'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n', 'data: [DONE]\n\n']
const dripMs = Number(process.env.DRIP_MS ?? 0)

// How many streams were open at once (GET /stats): shows whether a pool in front queued any.
let open = 0
let peakOpen = 0

createServer((req, res) => {
  if (req.url === '/stats') return res.end(JSON.stringify({ open, peakOpen }))
  let body = ''
  req.on('data', chunk => { body += chunk })
  req.on('end', () => {
    // Some gateways drop the client's Accept header: the body's own stream flag counts too.
    const stream = req.headers.accept === 'text/event-stream' || req.url.includes('stream=1') || /"stream"\s*:\s*true/.test(body)
    if (req.url.startsWith('/v1/messages')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(messagesReply) })
      return res.end(messagesReply)
    }
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(chatReply) })
      return res.end(chatReply)
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    if (!dripMs) return res.end(chatFrames.join(''))
    peakOpen = Math.max(peakOpen, ++open)
    res.once('close', () => { open-- })
    let i = 0
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer)
      res.write(chatFrames[i++])
      if (i === chatFrames.length) { clearInterval(timer); res.end() }
    }, dripMs)
  })
}).listen(0, '127.0.0.1', function () { console.log(`listening on http://127.0.0.1:${this.address().port}`) })

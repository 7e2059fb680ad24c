// Bench mock upstream: fixed small replies, and streams of 64 deltas (optionally dripped slowly), or of 200
// deltas for an agent-sized request (over 16 KB: a coding agent's turn gets a coding agent's answer).
import { createServer } from 'node:http'

const chatReply = JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion', created: 1, model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 } })
const messagesReply = JSON.stringify({ id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench', content: [{ type: 'text', text: 'Hello from the bench upstream.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 7 } })
const chatChunk = i => `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":"tok${i} "},"finish_reason":null}]}\n\n`
// The small stream stays as it always was (comparable across runs); the agent stream reports usage, as real upstreams do.
const chatStream = (deltas, usage = '') => [...Array.from({ length: deltas }, (_, i) => chatChunk(i)), `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]${usage}}\n\n`, 'data: [DONE]\n\n']
const messagesEvent = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
const messagesStream = deltas => [
  messagesEvent('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20000, output_tokens: 1 } } }),
  messagesEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ...Array.from({ length: deltas }, (_, i) => messagesEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: `tok${i} ` } })),
  messagesEvent('content_block_stop', { index: 0 }),
  messagesEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: deltas } }),
  messagesEvent('message_stop', {}),
]
const streams = { chat: { 64: chatStream(64), 200: chatStream(200, ',"usage":{"prompt_tokens":20000,"completion_tokens":200,"total_tokens":20200}') }, messages: { 64: messagesStream(64), 200: messagesStream(200) } }
const dripMs = Number(process.env.DRIP_MS ?? 0)
// MOCK_CHUNKED=1: each event its own write, one per turn of the event loop (as a real upstream sends
// tokens, with no wait between them): the proxy reads the stream in ~200 chunks, not in one.
const chunked = process.env.MOCK_CHUNKED === '1'

// How many streams were open at once (GET /stats): shows whether a pool in front queued any.
let open = 0
let peakOpen = 0

createServer((req, res) => {
  if (req.url === '/stats') return res.end(JSON.stringify({ open, peakOpen }))
  // Chunks, never one string: a body over 128 KB as a string lands in V8's large-object space, which on
  // this VM costs milliseconds per request and would slow the floor as much as the proxy.
  const chunks = []
  let size = 0
  req.on('data', chunk => { chunks.push(chunk); size += chunk.length })
  req.on('end', () => {
    // Some gateways drop the client's Accept header: the body's own stream flag counts too.
    const stream = req.headers.accept === 'text/event-stream' || req.url.includes('stream=1') || chunks.some(chunk => /"stream"\s*:\s*true/.test(chunk.toString('latin1')))
    const deltas = size > 16384 ? 200 : 64
    const messages = req.url.startsWith('/v1/messages')
    if (messages && !stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(messagesReply) })
      return res.end(messagesReply)
    }
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(chatReply) })
      return res.end(chatReply)
    }
    const frames = streams[messages ? 'messages' : 'chat'][deltas]
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    if (chunked) {
      let i = 0
      const next = () => {
        if (res.destroyed) return
        res.write(frames[i++])
        if (i === frames.length) res.end()
        else setImmediate(next)
      }
      return next()
    }
    if (!dripMs) return res.end(frames.join(''))
    peakOpen = Math.max(peakOpen, ++open)
    res.once('close', () => { open-- })
    let i = 0
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer)
      res.write(frames[i++])
      if (i === frames.length) { clearInterval(timer); res.end() }
    }, dripMs)
  })
}).listen(0, '127.0.0.1', function () { console.log(`listening on http://127.0.0.1:${this.address().port}`) })

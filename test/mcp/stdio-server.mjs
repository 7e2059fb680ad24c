// A local MCP server for the gateway's tests, over stdio: `echo` {message}, `sleep` {ms, steps} (progress
// after each step when asked), `huge` {mb} (a text result of that many MB, on one stdout line), `ask`
// (elicits a confirmation), `storm` {count} (that many tools/list_changed notices at once), `listed` (how
// often it was asked tools/list). With KEEP_RUNNING in its env it does not stop at the end of its stdin.
// With QUOTE in its env, it quotes that value in its tool and prompt listings,
// progress notices and questions, as a server may quote its configuration.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ElicitResultSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'

const quote = process.env.QUOTE ? ` (${process.env.QUOTE})` : ''
let listed = 0
const server = new Server({ name: 'test-stdio', version: '1' }, { capabilities: { tools: { listChanged: true }, prompts: {} } })
server.setRequestHandler(ListToolsRequestSchema, () => {
  listed++
  return { tools: ['echo', 'sleep', 'huge', 'ask', 'storm', 'listed'].map(name => ({ name, description: `${name}${quote}`, inputSchema: { type: 'object' } })) }
})
server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: 'greet', description: `a greeting${quote}`, arguments: [{ name: 'ms' }] }] }))
// `greet` takes `ms` to answer, or until it is cancelled.
server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
  await new Promise(resolve => {
    const timer = setTimeout(resolve, Number(request.params.arguments?.ms ?? 0))
    extra.signal.addEventListener('abort', () => { clearTimeout(timer); resolve() })
  })
  return { messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }
})
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = request.params.arguments ?? {}
  const text = value => ({ content: [{ type: 'text', text: String(value) }] })
  if (request.params.name === 'echo') return text(args.message)
  if (request.params.name === 'listed') return text(listed)
  if (request.params.name === 'storm') {
    for (let i = 0; i < args.count; i++) void server.sendToolListChanged()
    return text('stormed')
  }
  if (request.params.name === 'huge') return text('x'.repeat(args.mb * 1024 * 1024))
  if (request.params.name === 'ask') {
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: `Go on${quote}?`, requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema)
    return text(answer.action)
  }
  if (request.params.name !== 'sleep') throw new McpError(-32602, `no tool ${request.params.name}`)
  const steps = args.steps ?? 1
  const token = request.params._meta?.progressToken
  for (let step = 1; step <= steps; step++) {
    await new Promise(resolve => setTimeout(resolve, (args.ms ?? 100) / steps))
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: steps, message: `step ${step}${quote}` } })
  }
  return text(`slept ${args.ms ?? 100}`)
})
await server.connect(new StdioServerTransport())
if (process.env.KEEP_RUNNING) setInterval(() => {}, 1 << 30)

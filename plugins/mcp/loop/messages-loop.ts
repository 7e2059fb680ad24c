import type { Gateway, CallContext } from '../gateway.ts'
import type { LoopTurns } from './live-answer.ts'
import { loopRounds, loopTools, runTool } from './tool-set.ts'

type Block = Record<string, unknown>
type Message = { role: string; content: string | Block[] }
type McpServer = { type: 'url'; name: string; url: string; tool_configuration?: { allowed_tools?: string[] | null; enabled?: boolean | null } | null }
type Toolset = { type: 'mcp_toolset'; mcp_server_name: string; default_config?: { enabled?: boolean }; configs?: Record<string, { enabled?: boolean }> }

export const mcpServersOfBody = (body: Record<string, unknown>): McpServer[] => (Array.isArray(body.mcp_servers) ? body.mcp_servers : []) as McpServer[]

/** Which tools of a server the request enables: a `mcp_toolset` entry when there is one, else the server's `tool_configuration`. */
function allowedOf(server: McpServer, toolsets: Toolset[]): ((tool: string) => boolean) | undefined {
  const toolset = toolsets.find(set => set.mcp_server_name === server.name)
  if (toolset) return tool => toolset.configs?.[tool]?.enabled ?? toolset.default_config?.enabled ?? true
  const config = server.tool_configuration
  if (config?.enabled === false) return () => false
  return config?.allowed_tools ? tool => config.allowed_tools!.includes(tool) : undefined
}

/** The client's earlier MCP blocks as tool_use / tool_result turns the upstream understands. */
export function messagesForUpstream(messages: Message[]): Message[] {
  const out: Message[] = []
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string' || !message.content.some(block => block.type === 'mcp_tool_use' || block.type === 'mcp_tool_result')) {
      out.push(message)
      continue
    }
    let assistant: Block[] = []
    for (const block of message.content) {
      if (block.type === 'mcp_tool_use') assistant.push({ type: 'tool_use', id: block.id, name: `${block.server_name}__${block.name}`, input: block.input ?? {} })
      else if (block.type === 'mcp_tool_result') {
        out.push({ role: 'assistant', content: assistant }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.tool_use_id, content: block.content ?? '', is_error: block.is_error === true }] })
        assistant = []
      } else assistant.push(block)
    }
    if (assistant.length) out.push({ role: 'assistant', content: assistant })
  }
  return out
}

/**
 * The messages API's `mcp_servers` for an upstream that cannot call MCP servers: each server named is
 * a gateway server; the proxy offers its tools to the model as tools, runs the calls it makes, and
 * answers with the blocks the vendor would (`mcp_tool_use` then `mcp_tool_result`, in place).
 */
export async function runMessagesLoop(
  gateway: Gateway, context: CallContext, body: Record<string, unknown>, turns: LoopTurns,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const servers = mcpServersOfBody(body)
  const toolsets = (Array.isArray(body.tools) ? body.tools : []).filter(tool => (tool as Block)?.type === 'mcp_toolset') as Toolset[]
  const tools = loopTools(gateway, context, servers.map(server => ({ server: server.name, allowed: allowedOf(server, toolsets) })))
  const ownTools = (Array.isArray(body.tools) ? body.tools as Block[] : []).filter(tool => tool.type !== 'mcp_toolset')
  const upstreamTools = [...ownTools, ...[...tools.tools].map(([name, { tool }]) => ({ name, description: tool.description ?? '', input_schema: tool.inputSchema }))]
  const { mcp_servers: _servers, ...rest } = body
  const messages = messagesForUpstream(body.messages as Message[])
  const content: Block[] = []
  const made = (block: Block) => { content.push(block); turns.made(block) }
  const usage = { input_tokens: 0, output_tokens: 0 }
  let last: Record<string, unknown> | undefined
  for (let round = 0; round < loopRounds; round++) {
    const answer = await turns.send({ ...rest, messages, tools: upstreamTools, stream: false }, name => tools.tools.has(name))
    if (answer.status !== 200 || !answer.json) return { status: answer.status, body: answer.json ?? {} }
    last = answer.json
    const used = last.usage as Block | undefined
    usage.input_tokens += Number(used?.input_tokens ?? 0)
    usage.output_tokens += Number(used?.output_tokens ?? 0)
    const blocks = (last.content as Block[] | undefined) ?? []
    const calls = blocks.filter(block => block.type === 'tool_use' && tools.tools.has(block.name as string))
    const results: Block[] = []
    for (const block of blocks) {
      if (!calls.includes(block)) {
        content.push(block)
        continue
      }
      const entry = tools.tools.get(block.name as string)!
      const result = await runTool(gateway, context, block.name as string, (block.input ?? {}) as Record<string, unknown>)
      made({ type: 'mcp_tool_use', id: block.id, name: entry.name, server_name: entry.server, input: block.input ?? {} })
      made({ type: 'mcp_tool_result', tool_use_id: block.id, is_error: result.isError, content: [{ type: 'text', text: result.text }] })
      results.push({ type: 'tool_result', tool_use_id: block.id, content: result.text, is_error: result.isError })
    }
    const foreign = blocks.some(block => block.type === 'tool_use' && !tools.tools.has(block.name as string))
    if (!calls.length || foreign) break
    messages.push({ role: 'assistant', content: blocks }, { role: 'user', content: results })
  }
  return { status: 200, body: { ...last, content, usage: { ...(last!.usage as Block), ...usage } } }
}

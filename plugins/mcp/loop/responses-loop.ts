import { randomUUID } from 'node:crypto'
import type { Gateway, CallContext } from '../gateway.ts'
import type { LoopTurns } from './live-answer.ts'
import { loopRounds, loopTools, runTool, type LoopTools } from './tool-set.ts'

type Item = Record<string, unknown>
type McpTool = { type: 'mcp'; server_label: string; allowed_tools?: string[] | { tool_names?: string[] } | null; require_approval?: 'always' | 'never' | { always?: { tool_names?: string[] }; never?: { tool_names?: string[] } } | null }

const itemId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`
export const mcpToolsOf = (body: Record<string, unknown>): McpTool[] => (Array.isArray(body.tools) ? body.tools : []).filter((tool): tool is McpTool => (tool as Item)?.type === 'mcp')

/** Whether a call of `tool` needs the client's approval first (the vendor's default is: always). */
export function needsApproval(spec: McpTool, tool: string): boolean {
  const rule = spec.require_approval
  if (rule === 'never') return false
  if (rule && typeof rule === 'object') {
    if (rule.never?.tool_names?.includes(tool)) return false
    if (rule.always?.tool_names?.includes(tool)) return true
    return !rule.always // only `never` listed: the rest needs approval; only `always` listed: the rest does not
  }
  return true
}

const allowedOf = (spec: McpTool) => {
  const list = Array.isArray(spec.allowed_tools) ? spec.allowed_tools : spec.allowed_tools?.tool_names
  return list ? (tool: string) => list.includes(tool) : undefined
}

/** The tools of the `mcp` entries as function tools for the upstream, the rest of the tools kept. */
export function upstreamTools(body: Record<string, unknown>, tools: LoopTools): Item[] {
  const kept = (body.tools as Item[]).filter(tool => tool.type !== 'mcp')
  for (const [name, { tool }] of tools.tools) kept.push({ type: 'function', name, description: tool.description ?? '', parameters: tool.inputSchema, strict: false })
  return kept
}

export interface ResponsesLoopResult { status: number; body: Record<string, unknown> }

/**
 * The responses API's `mcp` tool for an upstream that cannot call MCP servers: the servers the tool
 * names are gateway servers; the proxy lists their tools to the model as functions, runs the calls
 * the model makes, and answers with the items the vendor would (`mcp_list_tools`, `mcp_call`,
 * `mcp_approval_request` when approval is asked for). Earlier MCP items in the input are turned into
 * function calls and outputs for the upstream; an approval in the input runs its call first.
 */
export async function runResponsesLoop(
  gateway: Gateway, context: CallContext, body: Record<string, unknown>, turns: LoopTurns,
): Promise<ResponsesLoopResult> {
  const specs = mcpToolsOf(body)
  const specOf = new Map(specs.map(spec => [spec.server_label, spec]))
  const tools = loopTools(gateway, context, specs.map(spec => ({ server: spec.server_label, allowed: allowedOf(spec) })))
  const output: Item[] = []
  const made = (item: Item) => { output.push(item); turns.made(item) }
  const rawInput = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as Item[] | undefined) ?? []
  const listedBefore = new Set(rawInput.filter(item => item.type === 'mcp_list_tools').map(item => item.server_label))
  for (const spec of specs) {
    if (listedBefore.has(spec.server_label)) continue
    made({
      type: 'mcp_list_tools', id: itemId('mcpl'), server_label: spec.server_label,
      tools: [...tools.tools.values()].filter(entry => entry.server === spec.server_label).map(({ name, tool }) => ({ name, description: tool.description ?? null, input_schema: tool.inputSchema, annotations: tool.annotations ?? null })),
    })
  }
  const input = await inputForUpstream(gateway, context, rawInput, made)
  const usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 }
  let last: Record<string, unknown> | undefined
  for (let round = 0; round < loopRounds; round++) {
    const answer = await turns.send({ ...body, input, tools: upstreamTools(body, tools), stream: false, ...(typeof body.tool_choice === 'object' && (body.tool_choice as Item)?.type === 'mcp' && { tool_choice: 'auto' }) }, name => tools.tools.has(name))
    if (answer.status !== 200 || !answer.json) return { status: answer.status, body: answer.json ?? {} }
    last = answer.json
    addUsage(usage, last.usage as Item | undefined)
    const items = (last.output as Item[] | undefined) ?? []
    const calls = items.filter(item => item.type === 'function_call' && tools.tools.has(item.name as string))
    const foreign = items.some(item => item.type === 'function_call' && !tools.tools.has(item.name as string))
    let stop = !calls.length || foreign
    const results: Item[] = []
    for (const item of items) {
      if (!calls.includes(item)) {
        output.push(item)
        continue
      }
      const entry = tools.tools.get(item.name as string)!
      if (needsApproval(specOf.get(entry.server)!, entry.name)) {
        made({ type: 'mcp_approval_request', id: itemId('mcpr'), server_label: entry.server, name: entry.name, arguments: item.arguments })
        stop = true
        continue
      }
      const result = await runTool(gateway, context, item.name as string, item.arguments as string)
      made(mcpCall(entry.server, entry.name, item.arguments as string, result))
      results.push({ type: 'function_call_output', call_id: item.call_id, output: result.text })
    }
    if (stop) break
    input.push(...items, ...results)
  }
  return { status: 200, body: { ...last, output, usage: { ...(last!.usage as Item), ...usage }, tools: body.tools, status: 'completed' } }
}

function mcpCall(server: string, name: string, args: string, result: { text: string; isError: boolean }, approval?: string): Item {
  return {
    type: 'mcp_call', id: itemId('mcp'), server_label: server, name, arguments: args ?? '{}',
    output: result.isError ? null : result.text,
    error: result.isError ? { type: 'mcp_tool_execution_error', content: [{ type: 'text', text: result.text }] } : null,
    status: result.isError ? 'failed' : 'completed',
    ...(approval && { approval_request_id: approval }),
  }
}

function addUsage(total: { input_tokens: number; output_tokens: number; total_tokens: number }, usage: Item | undefined): void {
  if (!usage) return
  total.input_tokens += Number(usage.input_tokens ?? 0)
  total.output_tokens += Number(usage.output_tokens ?? 0)
  total.total_tokens += Number(usage.total_tokens ?? 0)
}

/**
 * The client's input as the upstream understands it: MCP items become function calls and outputs;
 * an approved request runs now (its `mcp_call` joins this answer's output), a denied one is told so.
 */
async function inputForUpstream(gateway: Gateway, context: CallContext, input: Item[], made: (item: Item) => void): Promise<Item[]> {
  const requests = new Map(input.filter(item => item.type === 'mcp_approval_request').map(item => [item.id as string, item]))
  const out: Item[] = []
  for (const item of input) {
    if (item.type === 'mcp_list_tools' || item.type === 'mcp_approval_request') continue
    if (item.type === 'mcp_call') {
      const name = `${item.server_label}__${item.name}`
      out.push({ type: 'function_call', call_id: item.id, name, arguments: item.arguments ?? '{}' })
      out.push({ type: 'function_call_output', call_id: item.id, output: String(item.output ?? JSON.stringify(item.error ?? 'no output')) })
      continue
    }
    if (item.type === 'mcp_approval_response') {
      const asked = requests.get(item.approval_request_id as string)
      if (!asked) continue
      const name = `${asked.server_label}__${asked.name}`
      const result = item.approve === true
        ? await runTool(gateway, context, name, asked.arguments as string)
        : { text: 'the user did not approve this call', isError: true }
      if (item.approve === true) made(mcpCall(asked.server_label as string, asked.name as string, asked.arguments as string, result, asked.id as string))
      out.push({ type: 'function_call', call_id: asked.id, name, arguments: asked.arguments ?? '{}' })
      out.push({ type: 'function_call_output', call_id: asked.id, output: result.text })
      continue
    }
    out.push(item)
  }
  return out
}

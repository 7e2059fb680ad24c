import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Gateway, CallContext } from '../gateway.ts'
import { splitName } from '../names.ts'

/** The gateway tools one request may use: by namespaced name, with their server and own name. */
export interface LoopTools {
  tools: Map<string, { server: string; name: string; tool: Tool }>
}

/** The tools a request names (a server, optionally some of its tools), as far as the key may use them. */
export function loopTools(gateway: Gateway, context: CallContext, wanted: Array<{ server: string; allowed?: (tool: string) => boolean }>): LoopTools {
  const tools = new Map<string, { server: string; name: string; tool: Tool }>()
  const listed = gateway.listTools(context.access)
  for (const { server, allowed } of wanted) {
    for (const tool of listed) {
      const split = splitName(tool.name)
      if (split?.server !== server || (allowed && !allowed(split.name))) continue
      tools.set(tool.name, { server, name: split.name, tool })
    }
  }
  return { tools }
}

/** A tool result as the text a model reads: text parts joined, anything else as JSON. */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map(part => part.type === 'text' ? part.text : JSON.stringify(part))
  if (result.structuredContent && !parts.length) parts.push(JSON.stringify(result.structuredContent))
  return parts.join('\n')
}

/** Runs one gateway tool call for the loop; a failure of any kind is an error result, never a throw. */
export async function runTool(gateway: Gateway, context: CallContext, name: string, argumentsText: string | Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  let args: Record<string, unknown>
  try {
    args = typeof argumentsText === 'string' ? (argumentsText.trim() ? JSON.parse(argumentsText) : {}) : argumentsText
  } catch {
    return { text: `the arguments of ${name} are not valid JSON`, isError: true }
  }
  try {
    const result = await gateway.callTool(context, name, args)
    return { text: resultText(result), isError: result.isError === true }
  } catch (error) {
    return { text: (error as Error).message, isError: true }
  }
}

export const loopRounds = 8

import { type ImagePart, type Message, type Part, type TextPart, type ToolDef, RequestValidationError } from 'model-proxy'
import { isRoleName } from 'model-proxy/kit/codec'
import { decodeContent, nameUnknownPartKeys } from './content.ts'
import { absent, isObject, str, type Json } from './guards.ts'
import { thinkingFromItem } from './reasoning-item.ts'
import { namespacedCallName } from './namespace-tools.ts'

const messageRoles = new Set(['user', 'assistant', 'system', 'developer'])
/** What each item type carries canonically; `id`, `status` and `parsed_arguments` describe an answer replayed. */
const itemKeys: Record<string, ReadonlySet<string>> = {
  message: new Set(['type', 'role', 'content', 'id', 'status']),
  function_call: new Set(['type', 'call_id', 'name', 'arguments', 'namespace', 'id', 'status', 'parsed_arguments']),
  function_call_output: new Set(['type', 'call_id', 'output', 'id', 'status']),
  reasoning: new Set(['type', 'id', 'summary', 'content', 'encrypted_content', 'status']),
}

/**
 * `instructions` + `input` -> canonical messages. One assistant turn on the wire is a run of reasoning,
 * assistant message and function_call items; it becomes one assistant message so other formats see the
 * text and its tool calls together.
 */
export function decodeInput(input: unknown, instructions: string | undefined, unmapped = new Set<string>(), tools?: ToolDef[]): Message[] {
  const messages: Message[] = []
  if (instructions) messages.push({ role: 'system', parts: [{ type: 'text', text: instructions }] })
  if (typeof input === 'string') messages.push({ role: 'user', parts: [{ type: 'text', text: input }] })
  else if (Array.isArray(input)) decodeItems(input, messages, unmapped, tools)
  else if (!absent(input)) throw new RequestValidationError('input must be a string or an array of items', 'input')
  return messages
}

function decodeItems(items: unknown[], messages: Message[], unmapped: Set<string>, tools: ToolDef[] | undefined): void {
  // function_call_output carries no name; formats that need one (generateContent) get it from the call.
  const callNames = new Map<string, string>()
  const assistant = (part: Part) => {
    const last = messages.at(-1)
    if (last?.role === 'assistant') last.parts.push(part)
    else messages.push({ role: 'assistant', parts: [part] })
  }
  items.forEach((item, i) => {
    const param = `input[${i}]`
    if (!isObject(item) || !(absent(item.type) || typeof item.type === 'string')) throw new RequestValidationError(`${param} must be an input item object`, param)
    // A newer API's key on a known item: other formats have no place for it.
    const keys = itemKeys[(item.type as string | undefined) ?? 'message']
    if (keys) for (const key of Object.keys(item)) if (!keys.has(key)) unmapped.add(`input.${key}`)
    if (item.type === 'function_call_output') nameUnknownPartKeys(item.output, unmapped)
    switch (item.type ?? 'message') {
      case 'message': return decodeMessage(item, param, messages, assistant, unmapped)
      case 'function_call': {
        const call = decodeCall(item, param, tools)
        callNames.set(call.id, call.name)
        return assistant(call)
      }
      case 'function_call_output': {
        const callId = str(item.call_id)
        if (!callId) throw new RequestValidationError(`${param}.call_id must be a non-empty string`, param)
        // Documents in a tool's output have no canonical place (tool results hold text and images): named.
        const decoded = typeof item.output === 'string' ? item.output : decodeContent(item.output, `${param}.output`)
        if (typeof decoded !== 'string' && decoded.some(part => part.type === 'file')) unmapped.add('function_call_output.input_file')
        const content = typeof decoded === 'string' ? decoded : decoded.filter((part): part is TextPart | ImagePart => part.type !== 'file')
        const name = callNames.get(callId)
        messages.push({ role: 'tool', parts: [name ? { type: 'tool_result', callId, name, content } : { type: 'tool_result', callId, content }] })
        return
      }
      case 'reasoning': {
        const thinking = thinkingFromItem(item)
        if (thinking) assistant(thinking)
        return
      }
      // item_reference, compaction, built-in tool calls...: the canonical messages have no place for them.
      // Same-format traffic never needs them decoded (the body passes through untouched), so skip, not fail.
      default: unmapped.add(`item:${String(item.type)}`)
    }
  })
}

function decodeMessage(item: Json, param: string, messages: Message[], assistant: (part: Part) => void, unmapped: Set<string>): void {
  const role = str(item.role)
  if (!isRoleName(role)) throw new RequestValidationError(`${param}.role must be one of user, assistant, system, developer`, param)
  // A role this decoder does not know may be the vendor's newest: it passes on the same-format path only.
  if (!messageRoles.has(role)) {
    unmapped.add(`role:${role}`)
    return
  }
  const parts = decodeContent(item.content, `${param}.content`)
  nameUnknownPartKeys(item.content, unmapped)
  if (role === 'assistant') parts.forEach(assistant)
  // developer is this format's name for system instructions inside the conversation.
  else messages.push({ role: role === 'user' ? 'user' : 'system', parts })
}

function decodeCall(item: Json, param: string, tools: ToolDef[] | undefined): Part & { type: 'tool_call' } {
  const id = str(item.call_id)
  const name = str(item.name)
  if (!id || !name) throw new RequestValidationError(`${param} needs call_id and name strings`, param)
  if (!absent(item.arguments) && typeof item.arguments !== 'string') throw new RequestValidationError(`${param}.arguments must be a JSON string`, param)
  const args = str(item.arguments) ?? '{}'
  // A call of a namespaced tool: other formats know it by its flat name only.
  const namespace = str(item.namespace)
  if (namespace) return { type: 'tool_call', id, name: namespacedCallName(tools, namespace, name), arguments: args, namespace: { name: namespace, tool: name } }
  return { type: 'tool_call', id, name, arguments: args }
}

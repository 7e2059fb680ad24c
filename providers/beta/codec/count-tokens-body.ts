import { RequestValidationError } from 'model-proxy'

type Raw = Record<string, unknown>
const isObject = (value: unknown): value is Raw => !!value && typeof value === 'object' && !Array.isArray(value)
const refuse = (field: string, what: string): never => { throw new RequestValidationError(`${field}: ${what}`, field) }
const notObject = 'Input should be a valid dictionary or object'

/**
 * Server tools the vendor's token counting refuses (every server tool but the advisor), by their type's
 * name without its date: the Messages API runs them, count_tokens cannot count what they bring.
 */
const serverTools = /^(web_search|web_fetch|code_execution|tool_search_tool(_\w+)?)_\d+$/

/**
 * What the vendor's `/v1/messages/count_tokens` refuses in a body the messages decoder has read (an
 * object, a model, a list of messages), in the vendor's words: it takes a Messages request without
 * max_tokens, so the types that request has, and it does not count server tools, the MCP connector,
 * or images and documents by URL or file (its token counting guide). The endpoint answers here, never
 * upstream: without this a malformed body was counted, a skipped message as no tokens. Block types,
 * tool types and fields the vendor adds are not refused: only the shapes it documents.
 */
export function checkCountTokensBody(raw: Raw): void {
  (raw.messages as unknown[]).forEach((message, i) => checkMessage(message, `messages.${i}`))
  const system = raw.system
  if (system !== undefined && typeof system !== 'string') {
    if (!Array.isArray(system)) refuse('system', 'Input should be a valid string or a list of text blocks')
    ;(system as unknown[]).forEach((block, i) => checkBlock(block, `system.${i}`))
  }
  if (raw.tools !== undefined) {
    if (!Array.isArray(raw.tools)) refuse('tools', 'Input should be a valid list')
    ;(raw.tools as unknown[]).forEach((tool, i) => checkTool(tool, `tools.${i}`))
  }
  for (const field of ['tool_choice', 'thinking', 'output_config', 'metadata']) {
    if (raw[field] !== undefined && !isObject(raw[field])) refuse(field, notObject)
  }
  if (raw.mcp_servers !== undefined) refuse('mcp_servers', 'the MCP connector is not supported by token counting')
}

function checkMessage(message: unknown, at: string): void {
  if (!isObject(message)) return refuse(at, notObject)
  // The decoder has refused a missing role; one it skips (no turn of this format) counts nothing, so it is no request.
  if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system') refuse(`${at}.role`, 'Input should be \'user\' or \'assistant\'')
  const content = message.content
  if (content === undefined) refuse(`${at}.content`, 'Field required')
  if (typeof content === 'string') return
  if (!Array.isArray(content)) refuse(`${at}.content`, 'Input should be a valid string or a list of content blocks')
  ;(content as unknown[]).forEach((block, j) => checkBlock(block, `${at}.content.${j}`))
}

function checkBlock(block: unknown, at: string): void {
  if (!isObject(block)) return refuse(at, notObject)
  if (typeof block.type !== 'string') refuse(`${at}.type`, 'Field required')
  if (block.type === 'text' && typeof block.text !== 'string') refuse(`${at}.text`, 'Input should be a valid string')
  if ((block.type === 'image' || block.type === 'document') && isObject(block.source) && (block.source.type === 'url' || block.source.type === 'file')) {
    refuse(`${at}.source`, `token counting takes ${block.type}s as base64 (or text), not by ${block.source.type}`)
  }
  // A tool's result holds blocks of its own (text, images): the same rules.
  if (block.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach((inner, k) => checkBlock(inner, `${at}.content.${k}`))
}

function checkTool(tool: unknown, at: string): void {
  if (!isObject(tool)) return refuse(at, notObject)
  if (typeof tool.name !== 'string') refuse(`${at}.name`, 'Field required')
  if (typeof tool.type === 'string' && serverTools.test(tool.type)) refuse(at, `${tool.type}: server tools are not supported by token counting`)
  // A tool of the client's own (no type, or `custom`) is described by its schema; the vendor's typed tools are not.
  if ((tool.type === undefined || tool.type === 'custom') && !isObject(tool.input_schema)) refuse(`${at}.input_schema`, 'Field required')
}

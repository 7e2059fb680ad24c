/** What the mock model "says": deterministic, so tests and newcomers see the same thing. */
export interface MockTurn {
  text?: string
  toolCall?: { name: string; arguments: string }
}

interface ChatishMessage { role?: string; content?: unknown }

export function lastUserText(messages: ChatishMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role !== 'user') continue
    if (typeof message.content === 'string') return message.content
    if (Array.isArray(message.content)) {
      return message.content.map(part => (part as { text?: string }).text ?? '').join(' ').trim()
    }
  }
  return ''
}

/** `call <tool> with {json}` at the end of the user's text: that tool, with exactly those arguments. */
function directive(userText: string, toolNames: string[]): MockTurn | undefined {
  const match = /\bcall ([\w.-]+) with (\{.*\})\s*$/s.exec(userText)
  if (!match || !toolNames.includes(match[1]!)) return undefined
  try {
    return { toolCall: { name: match[1]!, arguments: JSON.stringify(JSON.parse(match[2]!)) } }
  } catch {
    return undefined
  }
}

/**
 * If tools are offered and the user says `call <tool> with {json}`, call it with those arguments; if the
 * user's prompt mentions a tool by name (or says "use a tool"), call it with `{query}`; after a tool result, answer
 * with what it returned; otherwise echo the question.
 */
export function mockTurn(userText: string, toolNames: string[], lastToolResult?: string): MockTurn {
  if (lastToolResult !== undefined) return { text: `The tool said: ${lastToolResult}` }
  const called = directive(userText, toolNames)
  if (called) return called
  // Agents open the user's turn with tagged context (`<system-reminder>`...) that names their tools: only
  // what follows the last tag is the user's own prompt.
  const prompt = userText.slice(userText.lastIndexOf('>') + 1)
  const tool = toolNames.find(name => prompt.includes(name)) ?? (/use a tool/i.test(prompt) ? toolNames[0] : undefined)
  if (tool) return { toolCall: { name: tool, arguments: JSON.stringify({ query: userText.slice(0, 40) }) } }
  return { text: `Hello from the playground mock upstream. You said: ${userText || '(nothing)'}` }
}

/** Split text into word-ish deltas, as a real model streams. */
export function toDeltas(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text]
}

/** Rough token count for usage fields (4 characters per token, like the vendors' rule of thumb). */
export const roughTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4))

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

/**
 * If tools are offered and the user mentions one by name (or says "use a tool"), call it;
 * after a tool result, answer with what it returned; otherwise echo the question.
 */
export function mockTurn(userText: string, toolNames: string[], lastToolResult?: string): MockTurn {
  if (lastToolResult !== undefined) return { text: `The tool said: ${lastToolResult}` }
  const tool = toolNames.find(name => userText.includes(name)) ?? (/use a tool/i.test(userText) ? toolNames[0] : undefined)
  if (tool) return { toolCall: { name: tool, arguments: JSON.stringify({ query: userText.slice(0, 40) }) } }
  return { text: `Hello from the playground mock upstream. You said: ${userText || '(nothing)'}` }
}

/** Split text into word-ish deltas, as a real model streams. */
export function toDeltas(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text]
}

/** Rough token count for usage fields (4 characters per token, like the vendors' rule of thumb). */
export const roughTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4))

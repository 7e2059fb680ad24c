import type { CanonicalResponse, Part, StreamEvent, ToolDef, ToolNamespace } from './types.ts'

/**
 * An upstream answers a grouped tool (ToolDef.namespace) by its flat name only: this gives its calls
 * back their group, from the tools the client declared, so the client's encoder can name them its way.
 * Undefined when the request declared no grouped tool (nothing to do).
 */
export function namespaceRestorer(tools: ToolDef[] | undefined): ((name: string) => ToolNamespace | undefined) | undefined {
  const byName = new Map<string, ToolNamespace>()
  for (const tool of tools ?? []) if (tool.namespace) byName.set(tool.name, tool.namespace)
  return byName.size ? name => byName.get(name) : undefined
}

type Restore = NonNullable<ReturnType<typeof namespaceRestorer>>

const restorePart = (restore: Restore) => (part: Part): Part => {
  if (part.type !== 'tool_call' || part.namespace) return part
  const namespace = restore(part.name)
  return namespace ? { ...part, namespace } : part
}

/** The response's tool calls (and its alternatives') with their groups. */
export function restoreNamespaces(response: CanonicalResponse, tools: ToolDef[] | undefined): CanonicalResponse {
  const restore = namespaceRestorer(tools)
  if (!restore) return response
  const part = restorePart(restore)
  const restored: CanonicalResponse = { ...response, parts: response.parts.map(part) }
  if (response.alternatives) restored.alternatives = response.alternatives.map(alt => ({ ...alt, parts: alt.parts.map(part) }))
  return restored
}

/** One stream event with its call's group (a `tool_call_start` of a grouped tool). */
export function restoreEventNamespace(event: StreamEvent, restore: Restore): StreamEvent {
  if (event.type !== 'tool_call_start' || event.namespace) return event
  const namespace = restore(event.name)
  return namespace ? { ...event, namespace } : event
}

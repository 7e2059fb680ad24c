import type { StreamEvent, ToolNamespace } from './types.ts'

/**
 * Formats that stream one output block at a time (messages content blocks, responses items,
 * generateContent's whole functionCalls) cannot follow the arguments of parallel calls that arrive
 * interleaved (a chat upstream sends them by `index`). This keeps the first call live and holds any
 * other call started meanwhile until something else comes (text, thinking, the finish); then the held
 * calls follow in the order they started, each as one start and one delta with all its arguments.
 */
export function createToolCallSequencer(): (event: StreamEvent) => StreamEvent[] {
  let live: number | undefined
  const held = new Map<number, { id?: string; name: string; args: string; choice?: number; namespace?: ToolNamespace }>()
  const release = (): StreamEvent[] => {
    live = undefined
    const out: StreamEvent[] = []
    for (const [index, call] of held) {
      const tag = call.choice ? { choice: call.choice } : {}
      const group = call.namespace ? { namespace: call.namespace } : {}
      if (call.id !== undefined) out.push({ type: 'tool_call_start', index, id: call.id, name: call.name, ...tag, ...group })
      if (call.args) out.push({ type: 'tool_call_delta', index, delta: call.args, ...tag })
    }
    held.clear()
    return out
  }
  return (event) => {
    switch (event.type) {
      case 'start': return [event]
      case 'tool_call_start': {
        if (live === undefined || live === event.index) {
          live = event.index
          return [event]
        }
        const call = held.get(event.index)
        if (call) Object.assign(call, { id: event.id, name: event.name, namespace: event.namespace })
        else held.set(event.index, { id: event.id, name: event.name, args: '', choice: event.choice, namespace: event.namespace })
        return []
      }
      case 'tool_call_delta': {
        if (live === undefined) live = event.index
        if (live === event.index) return [event]
        const call = held.get(event.index)
        if (call) call.args += event.delta
        else held.set(event.index, { name: '', args: event.delta, choice: event.choice })
        return []
      }
      // The common case (nothing held) allocates nothing beyond the one-element array.
      default:
        live = undefined
        return held.size ? [...release(), event] : [event]
    }
  }
}

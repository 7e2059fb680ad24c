import type { StreamEvent, ToolNamespace } from './types.ts'

/**
 * Formats that stream one output block at a time (messages content blocks, responses items,
 * generateContent's whole functionCalls) cannot follow the arguments of parallel calls that arrive
 * interleaved (a chat upstream sends them by `index`). This keeps the first call live and holds any
 * other call started meanwhile until something else comes (text, thinking, the finish); then the held
 * calls follow in the order they started, each as one start and one delta with all its arguments.
 * A call that ends with no argument text gets `{}` while its block is open: a chat decoder can only
 * say so at the finish, when the block has long closed (a late `{}` for it is then dropped).
 */
export function createToolCallSequencer(): (event: StreamEvent) => StreamEvent[] {
  let live: { index: number; args: boolean; choice?: number } | undefined
  const held = new Map<number, { id?: string; name: string; args: string; choice?: number; namespace?: ToolNamespace }>()
  /** Calls given `{}` here: their block closed before any argument text came. */
  const filled = new Set<number>()
  const empty = (index: number, choice?: number): StreamEvent => {
    filled.add(index)
    return { type: 'tool_call_delta', index, delta: '{}', ...(choice ? { choice } : {}) }
  }
  /** The live call's block is about to close. */
  const end = (): StreamEvent[] => {
    const call = live
    live = undefined
    return call && !call.args ? [empty(call.index, call.choice)] : []
  }
  const release = (): StreamEvent[] => {
    const out: StreamEvent[] = []
    for (const [index, call] of held) {
      const tag = call.choice ? { choice: call.choice } : {}
      const group = call.namespace ? { namespace: call.namespace } : {}
      if (call.id !== undefined) out.push({ type: 'tool_call_start', index, id: call.id, name: call.name, ...tag, ...group })
      out.push(call.args ? { type: 'tool_call_delta', index, delta: call.args, ...tag } : empty(index, call.choice))
    }
    held.clear()
    return out
  }
  return (event) => {
    switch (event.type) {
      case 'start': return [event]
      case 'tool_call_start': {
        if (live === undefined || live.index === event.index) {
          live ??= { index: event.index, args: false, choice: event.choice }
          return [event]
        }
        const call = held.get(event.index)
        if (call) Object.assign(call, { id: event.id, name: event.name, namespace: event.namespace })
        else held.set(event.index, { id: event.id, name: event.name, args: '', choice: event.choice, namespace: event.namespace })
        return []
      }
      case 'tool_call_delta': {
        if (filled.has(event.index) && event.delta === '{}') return []
        if (live === undefined && !filled.has(event.index)) live = { index: event.index, args: false, choice: event.choice }
        if (live?.index === event.index) {
          if (event.delta) live.args = true
          return [event]
        }
        const call = held.get(event.index)
        if (call) call.args += event.delta
        else if (live) held.set(event.index, { name: '', args: event.delta, choice: event.choice })
        // Argument text for a call whose block closed: nowhere to put it but after.
        else return [event]
        return []
      }
      // The common case (nothing live, nothing held) allocates nothing beyond the one-element array.
      default:
        if (!live && !held.size) return [event]
        return [...end(), ...release(), event]
    }
  }
}

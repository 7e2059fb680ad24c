import type { TurnEvent } from './live-turn.ts'
import type { LiveFormat } from './live-answer.ts'

type Json = Record<string, unknown>

/**
 * The tool loop's answer to a streamed responses request, written as it happens: the first turn's
 * `response.created`, then each turn's items as the model streams them (text token by token), the
 * loop's own items (`mcp_list_tools`, `mcp_call`, `mcp_approval_request`) as they are made, and one
 * `response.completed` whose output is every item in the order the client saw them. Calls of gateway
 * tools are held back: the client gets the `mcp_call` they become instead. Output indexes and sequence
 * numbers run across turns, as in one vendor answer.
 */
export function liveResponses(write: (text: string) => void): LiveFormat {
  let sequence = 0
  let started = false
  let ended = false // a turn's own failure event was relayed: it ends the answer
  let first: Json = {} // the first turn's response: its id and time are the answer's (clients check they stay)
  const pending: Json[] = []
  const output: Array<Json | undefined> = []
  const frame = (type: string, data: Json) => write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequence++ })}\n\n`)

  const item = (made: Json) => {
    if (!started) return void pending.push(made)
    const index = output.push(made) - 1
    frame('response.output_item.added', { output_index: index, item: made.type === 'mcp_call' ? { ...made, status: 'in_progress', output: null, error: null } : made })
    if (made.type === 'mcp_call') frame(made.status === 'failed' ? 'response.mcp_call.failed' : 'response.mcp_call.completed', { output_index: index, item_id: made.id })
    frame('response.output_item.done', { output_index: index, item: made })
  }

  return {
    item,
    turn(isLoopTool) {
      const at = new Map<number, number | undefined>() // the turn's output index -> the answer's (undefined: held back)
      let final: Json | undefined
      return {
        onEvent({ data }: TurnEvent) {
          if (!data || ended) return
          const type = String(data.type)
          if (type === 'response.created' || type === 'response.in_progress') {
            if (started || type !== 'response.created') return
            started = true
            const response = first = { ...(data.response as Json), output: [] }
            frame('response.created', { response })
            frame('response.in_progress', { response })
            for (const made of pending.splice(0)) item(made)
            return
          }
          if (type === 'response.completed' || type === 'response.incomplete') return void (final = data.response as Json)
          if (type === 'response.failed' || type === 'error') {
            ended = true
            return frame(type, data)
          }
          const local = data.output_index
          if (typeof local !== 'number') return frame(type, data)
          if (type === 'response.output_item.added') {
            const added = data.item as Json | undefined
            const held = added?.type === 'function_call' && isLoopTool(String(added.name))
            at.set(local, held ? undefined : output.push(undefined) - 1)
          }
          const index = at.get(local)
          if (index === undefined) return
          if (type === 'response.output_item.done') output[index] = data.item as Json
          frame(type, { ...data, output_index: index })
        },
        result: () => final && !ended ? { status: 200, json: final } : { status: 502, json: undefined },
      }
    },
    finish(result) {
      if (ended) return
      if (result.status === 200) return frame('response.completed', { response: { ...result.body, id: first.id, created_at: first.created_at, output: output.filter(Boolean) } })
      const error = (result.body.error ?? {}) as Json
      frame('error', { code: error.code ?? error.type ?? null, message: String(error.message ?? `the tool loop's turn failed with status ${result.status}`), param: error.param ?? null })
    },
  }
}

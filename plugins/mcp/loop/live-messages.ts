import type { TurnEvent } from './live-turn.ts'
import type { LiveFormat } from './live-answer.ts'

type Json = Record<string, unknown>

/** A streamed block put back together: text, thinking and signature deltas appended, a tool's input parsed from its JSON deltas. */
function addDelta(block: Json & { inputJson?: string }, delta: Json): void {
  if (delta.type === 'text_delta') block.text = `${block.text ?? ''}${delta.text ?? ''}`
  else if (delta.type === 'thinking_delta') block.thinking = `${block.thinking ?? ''}${delta.thinking ?? ''}`
  else if (delta.type === 'signature_delta') block.signature = `${block.signature ?? ''}${delta.signature ?? ''}`
  else if (delta.type === 'input_json_delta') block.inputJson = `${block.inputJson ?? ''}${delta.partial_json ?? ''}`
  else if (delta.type === 'citations_delta') block.citations = [...(block.citations as unknown[] | undefined) ?? [], delta.citation]
}

function closeBlock(block: Json & { inputJson?: string }): Json {
  const { inputJson, ...rest } = block
  if (inputJson === undefined) return rest
  try { return { ...rest, input: inputJson.trim() ? JSON.parse(inputJson) : {} } } catch { return { ...rest, input: {} } }
}

/**
 * The tool loop's answer to a streamed messages request, written as it happens: the first turn's
 * `message_start`, each turn's blocks as the model streams them (text token by token), the loop's
 * `mcp_tool_use` and `mcp_tool_result` blocks as each call runs, then one `message_delta` with the last
 * turn's stop reason and every turn's usage, and `message_stop`. Uses of gateway tools are held back:
 * the client gets the MCP blocks instead. Block indexes run across turns, as in one vendor answer.
 */
export function liveMessages(write: (text: string) => void): LiveFormat {
  let started = false
  let ended = false // a turn's own error event was relayed: it ends the answer
  let next = 0
  const pending: Json[] = []
  const frame = (type: string, data: Json) => write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)

  const item = (block: Json) => {
    if (!started) return void pending.push(block)
    const index = next++
    frame('content_block_start', { index, content_block: block })
    frame('content_block_stop', { index })
  }

  return {
    item,
    turn(isLoopTool) {
      const blocks: Array<Json & { inputJson?: string }> = []
      const at = new Map<number, number | undefined>() // the turn's block index -> the answer's (undefined: held back)
      let message: Json | undefined
      let delta: Json | undefined
      let stopped = false
      return {
        onEvent({ data }: TurnEvent) {
          if (!data || ended) return
          const type = String(data.type)
          if (type === 'message_start') {
            message = data.message as Json
            if (started) return
            started = true
            frame('message_start', { message: { ...message, content: [] } })
            for (const block of pending.splice(0)) item(block)
            return
          }
          if (type === 'message_delta') return void (delta = data)
          if (type === 'message_stop') return void (stopped = true)
          if (type === 'error') {
            ended = true
            return frame(type, data)
          }
          const local = data.index
          if (typeof local !== 'number') return frame(type, data) // ping, and what is not known here
          if (type === 'content_block_start') {
            const block = { ...(data.content_block as Json) }
            blocks[local] = block
            at.set(local, block.type === 'tool_use' && isLoopTool(String(block.name)) ? undefined : next++)
          } else if (type === 'content_block_delta' && blocks[local]) addDelta(blocks[local]!, data.delta as Json)
          const index = at.get(local)
          if (index !== undefined) frame(type, { ...data, index })
        },
        result() {
          if (ended || !message || !stopped) return { status: 502, json: undefined }
          const usage = { ...(message.usage as Json), ...(delta?.usage as Json) }
          const stop = (delta?.delta ?? {}) as Json
          return { status: 200, json: { ...message, content: blocks.filter(Boolean).map(closeBlock), stop_reason: stop.stop_reason ?? null, stop_sequence: stop.stop_sequence ?? null, usage } }
        },
      }
    },
    finish(result) {
      if (ended) return
      if (result.status !== 200) {
        const body = result.body
        return frame('error', { error: body.type === 'error' && body.error ? body.error : { type: 'api_error', message: `the tool loop's turn failed with status ${result.status}` } })
      }
      frame('message_delta', { delta: { stop_reason: result.body.stop_reason ?? 'end_turn', stop_sequence: result.body.stop_sequence ?? null }, usage: result.body.usage })
      frame('message_stop', {})
    },
  }
}

import { readTurn, type TurnEvent } from './live-turn.ts'

type Json = Record<string, unknown>

/** What the loop asks of the model and tells its client, turn by turn (index.ts: whole or live). */
export interface LoopTurns {
  /** One turn to the model; `isLoopTool` says which of its tool calls the loop runs itself. */
  send(body: Json, isLoopTool: (name: string) => boolean): Promise<{ status: number; json: Json | undefined }>
  /** An item or block the loop made (a tool listing, a call and its result, an approval request). */
  made(item: Json): void
}

/** One client format's live answer: how a turn's events are relayed, the loop's own items written, the end written. */
export interface LiveFormat {
  item(made: Json): void
  turn(isLoopTool: (name: string) => boolean): { onEvent(event: TurnEvent): void; result(): { status: number; json: Json | undefined } }
  finish(result: { status: number; body: Json }): void
}

/**
 * A streamed tool loop: the client's answer is an SSE body written while the loop runs. `opened`
 * settles once the first byte is written, or the loop ended without writing (its first turn failed:
 * then the answer is that turn's error, with its status, as when not streamed).
 */
export function liveAnswer(format: (write: (text: string) => void) => LiveFormat, sendStreamed: (body: Json, signal: AbortSignal) => Promise<Response>) {
  const encoder = new TextEncoder()
  const leaving = new AbortController()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let open = true
  const body = new ReadableStream<Uint8Array>({
    start: c => { controller = c },
    cancel: () => { open = false; leaving.abort() },
  })
  let written = false
  let wrote!: () => void
  const opened = new Promise<void>(resolve => { wrote = resolve })
  const live = format(text => {
    if (!open) return
    controller.enqueue(encoder.encode(text))
    written = true
    wrote()
  })
  const turns: LoopTurns = {
    made: item => live.item(item),
    async send(turn, isLoopTool) {
      if (leaving.signal.aborted) return { status: 499, json: undefined }
      const relay = live.turn(isLoopTool)
      const answered = await readTurn(await sendStreamed({ ...turn, stream: true }, leaving.signal), relay.onEvent)
      return answered.status === 200 ? relay.result() : { status: answered.status, json: answered.json }
    },
  }
  return {
    body, opened, turns,
    /** Whether anything was written: once it was, the status is 200 and an error can only be an event. */
    get written() { return written },
    /** The loop's end: the closing events (or the error event of a turn that failed after the first byte), then the end of the body. */
    finish(result: { status: number; body: Json }) {
      live.finish(result)
      if (open) controller.close()
      open = false
    },
  }
}

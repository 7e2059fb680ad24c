import { PassThrough, type Readable } from 'node:stream'
import { AnswerStream, type StreamOutcome } from '../../core/pipeline/stream.ts'
import type { StreamTransform } from '../../core/pipeline/stream-transform.ts'
import type { OpenAnswers } from '../../core/pipeline/open-answers.ts'

/**
 * A transform for AnswerStream's own tests: primed by the first chunk holding a blank line, bytes pass
 * as they are, `throwOn` makes push throw; whole once a chunk holding `[stop]` went by, complete (the
 * answer's last event: nothing after it in the chunk goes out) once one holding `[last]` did.
 */
export class TestTransform implements StreamTransform {
  primed = false
  complete = false
  usage = { inputTokens: 1, outputTokens: 2 }
  delivered = 0
  whole = false
  constructor(private readonly throwOn?: string) {}
  push(chunk: Uint8Array) {
    const text = Buffer.from(chunk).toString()
    if (this.throwOn && text.includes(this.throwOn)) throw new Error(`bad chunk ${text}`)
    if (text.includes('\n\n')) this.primed = true
    if (text.includes('[stop]')) this.whole = true
    const last = text.indexOf('[last]')
    if (last === -1) return Buffer.from(chunk)
    this.whole = true
    this.complete = true
    return Buffer.from(text.slice(0, last + 6))
  }
  end() { return Buffer.from('[end]') }
  fail(message: string, status = 502) { return Buffer.from(`[error ${status} ${message}]`) }
  settle() { return this.whole }
}

export const collect = async (stream: Readable) => {
  let text = ''
  for await (const chunk of stream) text += chunk
  return text
}

/** An answer over `upstream`, not started yet: `start()` commits it, `outcomes` gets what it tells. */
export function startedAnswer(upstream: Readable, transform: StreamTransform = new TestTransform(), open?: OpenAnswers) {
  const answer = new AnswerStream(upstream, transform)
  const outcomes: StreamOutcome[] = []
  return { answer, outcomes, start: () => answer.start(outcome => outcomes.push(outcome), open) }
}

/** An answer primed by its first event `a` and started: what the client is reading. */
export async function runningAnswer(open?: OpenAnswers) {
  const upstream = new PassThrough()
  const answer = startedAnswer(upstream, new TestTransform(), open)
  upstream.write('a\n\n')
  await answer.answer.primed
  answer.start()
  return { upstream, ...answer }
}

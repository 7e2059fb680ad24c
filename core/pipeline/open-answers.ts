import type { ProxyKernel } from '../kernel/kernel.ts'

const slot = Symbol('open answer index')

/**
 * An answer in progress: a stream being sent, or a request still waiting for its upstream. `end`
 * finishes it now: the stream with an error event in the client's format, the request with an error
 * response in it.
 */
export interface OpenAnswer {
  end(message: string, status: number): void
  /** Where the registry holds it (OpenAnswers' own). */
  [slot]?: number
}

/**
 * The answers an app is giving right now: an array with swap-remove, not a Set, for the reason
 * core/data/churn-map.ts gives (a Set every request adds to and deletes from kept every request alive into
 * the old generation after the first full collection). A popped array slot holds nothing.
 */
export class OpenAnswers {
  readonly #list: OpenAnswer[] = []

  get size(): number { return this.#list.length }

  add(answer: OpenAnswer): void {
    answer[slot] = this.#list.push(answer) - 1
  }

  delete(answer: OpenAnswer): void {
    const at = answer[slot]
    if (at === undefined || this.#list[at] !== answer) return
    const last = this.#list.pop()!
    if (last !== answer) {
      this.#list[at] = last
      last[slot] = at
    }
    answer[slot] = undefined
  }

  /** The open answers now (a copy: ending one removes it). */
  list(): OpenAnswer[] {
    return this.#list.slice()
  }
}

const byKernel = new WeakMap<ProxyKernel, OpenAnswers>()

/** The answers an app is giving right now (a shutdown ends what its drain window did not). */
export function openAnswersOf(kernel: ProxyKernel): OpenAnswers {
  let answers = byKernel.get(kernel)
  if (!answers) byKernel.set(kernel, answers = new OpenAnswers())
  return answers
}

/** End every open answer of `kernel` in its client's format; returns how many there were. */
export function endOpenAnswers(kernel: ProxyKernel, message: string, status = 503): number {
  const answers = openAnswersOf(kernel).list()
  for (const answer of answers) answer.end(message, status)
  return answers.length
}

/**
 * `answer`, unless the app's answers are ended first: then `onEnd`'s response (the request stops
 * waiting; its upstream call is dropped with the process).
 */
export function endableAnswer(kernel: ProxyKernel, answer: Promise<Response>, onEnd: (message: string, status: number) => Response): Promise<Response> {
  const open = openAnswersOf(kernel)
  return new Promise((resolve, reject) => {
    const entry: OpenAnswer = { end: (message, status) => { open.delete(entry); resolve(onEnd(message, status)) } }
    open.add(entry)
    answer.then(
      (response) => { open.delete(entry); resolve(response) },
      (error) => { open.delete(entry); reject(error) },
    )
  })
}

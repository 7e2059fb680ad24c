import type { ProxyKernel } from '../kernel.ts'

/**
 * An answer in progress: a stream being sent, or a request still waiting for its upstream. `end`
 * finishes it now: the stream with an error event in the client's format, the request with an error
 * response in it.
 */
export interface OpenAnswer { end(message: string, status: number): void }

const byKernel = new WeakMap<ProxyKernel, Set<OpenAnswer>>()

/** The answers an app is giving right now (a shutdown ends what its drain window did not). */
export function openAnswersOf(kernel: ProxyKernel): Set<OpenAnswer> {
  let answers = byKernel.get(kernel)
  if (!answers) byKernel.set(kernel, answers = new Set())
  return answers
}

/** End every open answer of `kernel` in its client's format; returns how many there were. */
export function endOpenAnswers(kernel: ProxyKernel, message: string, status = 503): number {
  const answers = [...openAnswersOf(kernel)]
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

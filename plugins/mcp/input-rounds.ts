import { randomUUID } from 'node:crypto'
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import { rpcFailure, type ClientMethod } from './client-requests.ts'

/** The answer of the 2026-07-28 revision when the server needs the client first: the client retries with the answers. */
export interface InputRequiredResult {
  resultType: 'input_required'
  inputRequests: Record<string, { method: ClientMethod; params?: Record<string, unknown> }>
  requestState: string
  [key: string]: unknown
}

interface Asked {
  method: ClientMethod
  params?: Record<string, unknown>
  resolve(result: Record<string, unknown>): void
  reject(error: Error): void
}

/** One call of a client of the 2026-07-28 revision, running across the client's retries. */
interface Round {
  keyId: string
  asked: Map<string, Asked>
  next: number
  /** The call: settled with its result or its error. */
  outcome: Promise<{ result?: unknown; error?: unknown }>
  settled: boolean
  controller: AbortController
  /** Wakes the request that waits on the call, when the server asks something. */
  wake?: () => void
  /** Where the call's notices (progress, log) go: the request of the latest round. */
  notify?: (notification: never) => Promise<void>
}

const prefix = 'gw-input-'
/** A finished call's result waits this long for the client's last retry. */
const keepSettledMs = 60_000

/**
 * Server-to-client requests for clients of the 2026-07-28 revision, which has no requests from server
 * to client: a call whose server asks the client something is answered `input_required` with the
 * questions, and goes on running; the client's retry carries the answers (`inputResponses`) and the
 * gateway's `requestState`, which names the running call (an id only this instance knows, bound to the
 * key). The retry then waits for the result, or for the next questions.
 */
export class InputRounds {
  private readonly rounds = new Map<string, Round>()

  /**
   * Serves one request of a multi-round-trip method (`tools/call`, `prompts/get`, `resources/read`).
   * `run` starts the call: its `ask` sends a server's request to this client; `signal` is the call's
   * own (it outlives the HTTP request that started it).
   */
  async serve<T>(
    keyId: string,
    request: { signal: AbortSignal; notify: (notification: never) => Promise<void>; state?: string; responses?: Record<string, unknown> },
    run: (ask: (method: ClientMethod, params: Record<string, unknown> | undefined, signal: AbortSignal) => Promise<Record<string, unknown>>, signal: AbortSignal, notify: (notification: never) => Promise<void>) => Promise<T>,
  ): Promise<T | InputRequiredResult> {
    let id: string
    let round: Round | undefined
    if (request.state?.startsWith(prefix)) {
      id = request.state
      round = this.rounds.get(id)
      if (!round || round.keyId !== keyId) throw rpcFailure(ErrorCode.InvalidParams, 'requestState names no call running here (it ended, or another instance runs it): send the request again without it')
      for (const [key, response] of Object.entries(request.responses ?? {})) {
        const asked = round.asked.get(key)
        if (!asked) continue
        round.asked.delete(key)
        asked.resolve(response as Record<string, unknown>)
      }
    } else {
      id = `${prefix}${randomUUID()}`
      round = this.start(id, keyId, run)
    }
    round.notify = request.notify
    return this.wait(id, round, request.signal)
  }

  private start(id: string, keyId: string, run: Parameters<InputRounds['serve']>[2]): Round {
    const controller = new AbortController()
    const round: Round = { keyId, asked: new Map(), next: 0, settled: false, controller, outcome: undefined as never }
    const ask = (method: ClientMethod, params: Record<string, unknown> | undefined, signal: AbortSignal) => new Promise<Record<string, unknown>>((resolve, reject) => {
      const key = `q${round.next++}`
      const stop = () => {
        round.asked.delete(key)
        reject(rpcFailure(ErrorCode.RequestTimeout, `the client did not answer ${method}: ${signal.reason?.message ?? 'its request ended'}`))
      }
      if (signal.aborted) return stop()
      signal.addEventListener('abort', stop, { once: true })
      const done = () => signal.removeEventListener('abort', stop)
      round.asked.set(key, { method, params, resolve: result => { done(); resolve(result) }, reject: error => { done(); reject(error) } })
      // Questions asked together go out together.
      setImmediate(() => round.wake?.())
    })
    const notify = (notification: never) => round.notify?.(notification) ?? Promise.resolve()
    round.outcome = run(ask, controller.signal, notify).then(result => ({ result }), error => ({ error })).finally(() => {
      round.settled = true
      round.wake?.()
      setTimeout(() => this.rounds.delete(id), keepSettledMs).unref()
    })
    this.rounds.set(id, round)
    return round
  }

  /** Waits for the call's end or its next questions; the client leaving ends the call. */
  private async wait<T>(id: string, round: Round, signal: AbortSignal): Promise<T | InputRequiredResult> {
    const questions = () => [...round.asked].map(([key, asked]) => [key, { method: asked.method, ...(asked.params && { params: asked.params }) }] as const)
    if (!round.settled && !questions().length) {
      await new Promise<void>(resolve => {
        const leave = () => {
          round.controller.abort(new Error('the client left'))
          resolve()
        }
        if (signal.aborted) return leave()
        signal.addEventListener('abort', leave, { once: true })
        round.wake = () => {
          signal.removeEventListener('abort', leave)
          resolve()
        }
      })
      round.wake = undefined
    }
    if (round.settled || round.controller.signal.aborted) {
      this.rounds.delete(id)
      const { result, error } = await round.outcome
      if (error !== undefined) throw error
      return result as T
    }
    return { resultType: 'input_required', inputRequests: Object.fromEntries(questions()), requestState: id }
  }

  /** Calls running or waiting for a retry (for tests: none may stay behind). */
  get size(): number {
    return this.rounds.size
  }

  close(): void {
    for (const round of this.rounds.values()) round.controller.abort(new Error('the gateway is closing'))
    this.rounds.clear()
  }
}

import type { StreamWatch, UpstreamReplyContext } from '../kernel/hooks.ts'
import { scrubSecrets } from '../provider/credential.ts'
import type { StreamTransform } from './stream-transform.ts'
import type { Attempt } from './attempt-result.ts'
import type { UpstreamReply } from './outcome.ts'

/**
 * `upstream-reply` observers see what the upstream answered (the flight recorder, plugins/recorder).
 * Nobody listening costs one property read: no context is built. A listener that sets `watch` on a
 * stream answer gets its chunks (`watchTransform`).
 */
export function announceReply(attempt: Attempt, reply: Exclude<UpstreamReply, { kind: 'unreachable' }>, text?: string): void | Promise<void> {
  const { kernel, request, candidate, number } = attempt
  // Not even a promise when nobody listens: callers `await` only what this returns.
  if (!kernel.hooks.listens('upstream-reply')) return
  const whole = text ?? (reply.kind === 'buffered' ? scrubSecrets(reply.text, candidate.credential) : undefined)
  const ctx: UpstreamReplyContext = { request, candidate, attempt: number, status: reply.status, headers: reply.headers, text: whole }
  const called = kernel.hooks.callObservers('upstream-reply', ctx)
  const take = () => { if (ctx.watch) attempt.watch = ctx.watch }
  if (called) return called.then(take)
  take()
}

/**
 * The same transform, showing `watch` every upstream chunk it takes and every chunk of client bytes it
 * gives (before keep-alive comments are mixed in). A failing watcher is ignored.
 */
export function watchTransform(transform: StreamTransform, watch: StreamWatch): StreamTransform {
  return new WatchedTransform(transform, watch)
}

/** A class, not a literal with getters (those keep their closures alive through young collections: stream-transform.ts). */
class WatchedTransform implements StreamTransform {
  constructor(private readonly transform: StreamTransform, private readonly watch: StreamWatch) {}

  get primed(): boolean { return this.transform.primed }
  get complete(): boolean { return this.transform.complete }
  get usage(): StreamTransform['usage'] { return this.transform.usage }
  get cut(): string | undefined { return this.transform.cut }
  get upstreamError(): string | undefined { return this.transform.upstreamError }
  get delivered(): number { return this.transform.delivered }

  #out(bytes: Uint8Array | undefined): Uint8Array | undefined {
    if (bytes) try { this.watch(bytes, 'client') } catch {}
    return bytes
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    try { this.watch(chunk, 'upstream') } catch {}
    return this.#out(this.transform.push(chunk))
  }

  end(): Uint8Array | undefined { return this.#out(this.transform.end()) }
  fail(message: string, status?: number): Uint8Array | undefined { return this.#out(this.transform.fail(message, status)) }
  settle(): boolean { return this.transform.settle() }
}

import type { ProxyKernel } from '../kernel.ts'

/** A client stream in progress: `end` finishes it now with an error event in the client's format. */
export interface OpenStream { end(message: string, status: number): void }

// Plugins are loaded through jiti and may hold their own copy of this module: one map per process.
const byKernel = ((globalThis as Record<symbol, unknown>)[Symbol.for('model-proxy.open-streams')] ??= new WeakMap()) as WeakMap<ProxyKernel, Set<OpenStream>>

/** The streams an app is sending right now (a shutdown ends what its drain window did not). */
export function openStreamsOf(kernel: ProxyKernel): Set<OpenStream> {
  let streams = byKernel.get(kernel)
  if (!streams) byKernel.set(kernel, streams = new Set())
  return streams
}

/** End every open stream of `kernel` with an error event in its format; returns how many there were. */
export function endOpenStreams(kernel: ProxyKernel, message: string, status = 503): number {
  const streams = [...openStreamsOf(kernel)]
  for (const stream of streams) stream.end(message, status)
  return streams.length
}

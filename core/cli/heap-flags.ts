/**
 * The Node flags a proxy server should start with, and whether this process did. V8's memory reducer
 * shrinks an idle heap (a server idles after start and between an agent's bursts); a proxy process that
 * went through it was measured doing a mark-compact every ~60 ms under load, for the rest of its life,
 * at about twice the CPU per 150 KB request (docs/benchmarks.md, "the memory reducer"). The flag only
 * works at start (set later through `v8.setFlagsFromString` it did not stop the reducer), so the npm
 * scripts and a built server's start line carry it; the bin cannot (see its first lines).
 */
export const serverNodeFlags = ['--no-memory-reducer'] as const

/** Flags of `serverNodeFlags` this process was not started with (Node refuses them in NODE_OPTIONS). */
export function missingServerFlags(execArgv: readonly string[] = process.execArgv): string[] {
  // An operator who chose either way (--memory-reducer or --no-memory-reducer) is not told again.
  return serverNodeFlags.filter(flag => !execArgv.some(arg => arg.replace(/^--no-/, '--') === flag.replace(/^--no-/, '--')))
}

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serverNodeFlags } from '../../../core/cli/heap-flags.ts'

const here = fileURLToPath(new URL('.', import.meta.url))
const bin = fileURLToPath(new URL('../../../core/cli/bin.mjs', import.meta.url))

/** The client key the bench sends: as long as a real one (a 5-letter key is found inside model names, and the recorder would mask every body). */
export const benchKey = 'sk-bench-0123456789abcdef0123456789'

export interface Running { url: string; pid: number; child: ChildProcess; stop(): Promise<void> }

/** Start a process that prints `listening on <url>`, each on its own, as the bench needs. */
export function start(args: string[], env: Record<string, string> = {}, cwd = here): Promise<Running> {
  // Every Node side runs with the flags `npm start` gives the server (core/cli/heap-flags.ts):
  // without them one process in three or four was measured at twice its CPU per request for life.
  // No request line per request on stdout (the access log), so figures stay comparable with earlier runs;
  // PROXY_ACCESS_LOG=json in the caller's environment measures it.
  const child = spawn(process.execPath, [...serverNodeFlags, ...args], { cwd, env: { PROXY_ACCESS_LOG: 'off', ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk
      const match = /listening on (\S+)/.exec(text)
      if (match) resolve({ url: match[1]!, pid: child.pid!, child, stop: () => new Promise(done => {
        // A child that already exited (crashed) has nothing to wait for: waiting would hang the bench.
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGTERM')
      }) })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', code => reject(new Error(`exited ${code}: ${text}`)))
  })
}

/** The bench mock. `chunked`: each stream event its own write, as an upstream sends tokens (MOCK_CHUNKED=1 for every mock). */
export const startMock = (dripMs = 0, chunked = false) => start([join(here, 'mock-upstream.mjs')], { DRIP_MS: String(dripMs), ...(chunked && { MOCK_CHUNKED: '1' }) })
export const startPassthrough = (upstream: string, nodeArgs: string[] = []) => start([...nodeArgs, join(here, 'passthrough.mjs')], { UPSTREAM: upstream })

/**
 * This proxy, as `proxy start` with a temp project: compat and beta providers on the mock, state in
 * memory. `root` = another checkout of the project (the A/B bench starts two trees side by side).
 */
export function startProxy(upstream: string, nodeArgs: string[] = [], root?: string, yaml = process.env.BENCH_PROXY_YAML): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-bench-'))
  // BENCH_STORAGE=fs or redis: the state where a deployment keeps it (the flight recorder writes records there).
  const storage = { memory: "{ driver: 'memory' }", fs: `{ driver: 'fs', base: '${dir}/state' }`, redis: `{ driver: 'redis', base: 'proxy-bench-${process.pid}-${Date.now()}' }` }[process.env.BENCH_STORAGE ?? 'memory']
  if (!storage) throw new Error(`BENCH_STORAGE must be memory, fs or redis, not ${process.env.BENCH_STORAGE}`)
  writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: ${storage} }\n`)
  writeFileSync(join(dir, 'config.yaml'), [
    'host: 127.0.0.1', `api-keys: [${benchKey}]`, `auth-dir: ${dir}/auths`,
    `compat-provider: [{ name: mock, base-url: '${upstream}/v1', models: [{ name: bench, alias: bench }] }]`,
    `beta-api-key: [{ api-key: up, base-url: '${upstream}', models: [{ name: bench-claude, alias: bench-claude }], excluded-models: ['claude-*'] }]`,
    // More config for a run, e.g. BENCH_PROXY_YAML='recorder: { mode: all }' (docs/recorder.md).
    ...(yaml ? [yaml] : []),
    '',
  ].join('\n'))
  return start([...nodeArgs, root ? join(root, 'core/cli/bin.mjs') : bin, 'start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], {}, dir)
}

/** Resident memory of a process, MB (Linux /proc). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : Number.NaN
}

/** CPU time of a process so far, µs (utime + stime from /proc, 100 ticks per second). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

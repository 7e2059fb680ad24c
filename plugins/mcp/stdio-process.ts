import { spawn, type ChildProcess } from 'node:child_process'
import { PassThrough } from 'node:stream'
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js'
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { LineReader } from './stdio-lines.ts'

/** Each step of a stop waits this long for the process to end. */
const stopStepMs = 2000
/** A process group of its own, stopped as a whole (no groups on Windows: the process alone). */
const grouped = process.platform !== 'win32'

/**
 * A local server's process spoken to over stdio, as the SDK's stdio transport does (stdin closed, then
 * SIGTERM, then SIGKILL, 2 s apart), with two differences. The command runs in a process group of its
 * own, and the signals go to the group: a command that runs the server under a wrapper (`sh -c ...`, a
 * script) left the server running once the wrapper was stopped, and a hung one was never stopped. And
 * it reads with a `LineReader`: an oversized answer fails its request, not the connection.
 */
export class LocalServerTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** The process's stderr, there before it starts (so nothing it writes first is lost). */
  readonly stderr = new PassThrough()
  /** The end of what this process wrote on stderr (its failure's words; an earlier run's are not its). */
  stderrTail = ''
  private child?: ChildProcess
  private readonly reader: LineReader

  constructor(private readonly server: StdioServerParameters, maxBytes: () => number) {
    this.reader = new LineReader(maxBytes)
    this.stderr.on('data', (chunk: Buffer) => { this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000) })
  }

  get pid(): number | undefined { return this.child?.pid }

  start(): Promise<void> {
    if (this.child) throw new Error('the server process is already started')
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, this.server.args ?? [], {
        env: this.server.env, cwd: this.server.cwd, stdio: ['pipe', 'pipe', 'pipe'], shell: false, detached: grouped, windowsHide: true,
      })
      this.child = child
      child.on('error', error => {
        reject(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => resolve())
      child.on('close', () => {
        if (this.child === child) this.child = undefined
        this.onclose?.()
      })
      child.stdin?.on('error', error => this.onerror?.(error))
      child.stdout?.on('error', error => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk))
      child.stderr?.pipe(this.stderr)
    })
  }

  private read(chunk: Buffer): void {
    this.reader.append(chunk)
    for (;;) {
      try {
        const message = this.reader.readMessage()
        if (message === null) return
        this.onmessage?.(message)
      } catch (error) {
        this.onerror?.(error as Error)
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin
      if (!stdin) return reject(new Error('Not connected'))
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  /** Closes its stdin (a server ends then), then signals the group: a wrapper's child may outlive the wrapper. */
  async close(): Promise<void> {
    const child = this.child
    this.child = undefined
    this.reader.clear()
    if (!child?.pid) return
    try {
      child.stdin?.end()
    } catch {}
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (await gone(child, stopStepMs)) return
      try {
        if (grouped) process.kill(-child.pid, signal)
        else child.kill(signal)
      } catch {}
    }
  }
}

/** Whether anything of the process (its group) still runs. */
function running(child: ChildProcess): boolean {
  if (!grouped) return child.exitCode === null && child.signalCode === null
  try {
    process.kill(-child.pid!, 0)
    return true
  } catch {
    return false
  }
}

/** Waits up to `ms` for nothing of the process to run; whether it came to that. */
async function gone(child: ChildProcess, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (running(child)) {
    if (Date.now() >= end) return false
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return true
}

import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs'
import { join } from 'node:path'

/** One file's size limit before it rotates. */
const rotateBytes = 10 * 1024 * 1024

/**
 * `main.log` with numeric rotation (`main.log.1` newest) and a total-size cap that deletes the oldest
 * rotated files. Lines are queued and appended once per event-loop turn: a busy proxy writes one append
 * for many requests instead of a mkdir, a stat and an append for each. The file's size is tracked here.
 */
export class MainLog {
  private pending: string[] = []
  private scheduled = false
  /** Bytes in main.log as far as this writer knows; -1 = read it from disk first. */
  private size = -1
  private readyDir?: string

  constructor(private dir: () => string, private maxTotalMb: () => number) {}

  get path(): string { return join(this.dir(), 'main.log') }

  write(line: string): void {
    this.pending.push(`${line}\n`)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.flush())
  }

  /** Append what is queued now (readers call it first, so they see every line written before them). */
  flush(): void {
    this.scheduled = false
    if (!this.pending.length) return
    const lines = this.pending
    this.pending = []
    try {
      const dir = this.dir()
      // One stat per batch: a folder removed under us (DELETE, an operator) is made again.
      if (dir !== this.readyDir || !existsSync(dir)) {
        mkdirSync(dir, { recursive: true })
        this.readyDir = dir
        this.size = -1
      }
      const path = join(dir, 'main.log')
      if (this.size < 0) this.size = existsSync(path) ? statSync(path).size : 0
      const limit = this.fileLimit()
      let chunk = ''
      for (const line of lines) {
        if (this.size >= limit) {
          if (chunk) appendFileSync(path, chunk)
          chunk = ''
          this.rotate()
          this.size = 0
        }
        chunk += line
        this.size += Buffer.byteLength(line)
      }
      if (chunk) appendFileSync(path, chunk)
    } catch (error) {
      // The folder may have been removed under us: look again next time.
      this.readyDir = undefined
      this.size = -1
      process.stderr.write(`log write failed: ${(error as Error).message}\n`)
    }
  }

  private fileLimit(): number {
    const total = this.maxTotalMb() * 1024 * 1024
    return total > 0 ? Math.max(64 * 1024, Math.min(rotateBytes, Math.floor(total / 4))) : rotateBytes
  }

  rotated(): string[] {
    const dir = this.dir()
    if (!existsSync(dir)) return []
    return readdirSync(dir).filter(name => /^main\.log\.\d+$/.test(name)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
  }

  private rotate(): void {
    const dir = this.dir()
    const files = this.rotated()
    for (let i = files.length - 1; i >= 0; i--) {
      const n = Number(files[i]!.split('.').pop())
      renameSync(join(dir, files[i]!), join(dir, `main.log.${n + 1}`))
    }
    renameSync(this.path, join(dir, 'main.log.1'))
    this.enforceTotal()
  }

  /** logs-max-total-size-mb: drop the oldest rotated files until the folder fits (0 = unlimited). */
  enforceTotal(): void {
    const max = this.maxTotalMb() * 1024 * 1024
    if (max <= 0) return
    const dir = this.dir()
    const files = this.rotated()
    let total = files.reduce((sum, name) => sum + statSync(join(dir, name)).size, existsSync(this.path) ? statSync(this.path).size : 0)
    while (total > max && files.length) {
      const oldest = files.pop()!
      total -= statSync(join(dir, oldest)).size
      rmSync(join(dir, oldest))
    }
  }

  /** DELETE /logs: truncate the active file, remove every rotated one. */
  clear(): number {
    this.flush()
    if (existsSync(this.path)) truncateSync(this.path, 0)
    this.size = 0
    const files = this.rotated()
    for (const name of files) rmSync(join(this.dir(), name))
    return files.length
  }
}

import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs'
import { join } from 'node:path'

/** One file's size limit before it rotates. */
const rotateBytes = 10 * 1024 * 1024

/**
 * `main.log` with numeric rotation (`main.log.1` newest) and a total-size cap that deletes the oldest
 * rotated files. Writes are synchronous appends: a line is on disk before the request it describes ends.
 */
export class MainLog {
  constructor(private dir: () => string, private maxTotalMb: () => number) {}

  get path(): string { return join(this.dir(), 'main.log') }

  write(line: string): void {
    const dir = this.dir()
    mkdirSync(dir, { recursive: true })
    const path = this.path
    if (existsSync(path) && statSync(path).size >= this.fileLimit()) this.rotate()
    appendFileSync(path, `${line}\n`)
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
    if (existsSync(this.path)) truncateSync(this.path, 0)
    const files = this.rotated()
    for (const name of files) rmSync(join(this.dir(), name))
    return files.length
  }
}

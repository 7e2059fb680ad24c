import { mkdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { isProcessAlive } from 'model-proxy/kit/fleet'

/** An owner file not touched for this long belongs to an instance that is gone (another host: no pid to check). */
export const staleClaimMs = 90_000
const heartbeatMs = 30_000

interface Owner { instance: string; pid: number; host: string }

/**
 * The default `logs` folder of a working directory is claimed by the first live instance there; any
 * other instance started in the same folder writes to `logs/<instance-id>/` instead (two writers of one
 * main.log would interleave and rotate each other's file). The claim is a small owner file, touched
 * while the instance runs and released when it stops; a dead owner's claim is taken over.
 */
export class LogsDirClaim {
  private dir?: string
  private heartbeat?: NodeJS.Timeout
  private owned = false

  constructor(private base: () => string, private instanceId: string) {}

  private get ownerPath(): string { return join(this.base(), '.owner.json') }

  /** The folder this instance writes to (claimed on the first call). */
  resolve(): string {
    this.dir ??= this.claim() ? this.base() : join(this.base(), this.instanceId)
    return this.dir
  }

  private claim(): boolean {
    mkdirSync(this.base(), { recursive: true })
    const me: Owner = { instance: this.instanceId, pid: process.pid, host: hostname() }
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(this.ownerPath, JSON.stringify(me), { flag: 'wx' })
        this.owned = true
        this.heartbeat = setInterval(() => { try { const now = new Date(); utimesSync(this.ownerPath, now, now) } catch {} }, heartbeatMs)
        this.heartbeat.unref()
        return true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true
      }
      let owner: Owner | undefined
      let touched = 0
      try {
        owner = JSON.parse(readFileSync(this.ownerPath, 'utf8')) as Owner
        touched = statSync(this.ownerPath).mtimeMs
      } catch {}
      if (owner?.instance === this.instanceId) return true
      const gone = !owner || (owner.host === me.host ? !isProcessAlive(owner.pid) : Date.now() - touched > staleClaimMs)
      if (!gone) return false
      try { unlinkSync(this.ownerPath) } catch {}
    }
    return false
  }

  release(): void {
    clearInterval(this.heartbeat)
    if (this.owned) {
      try { unlinkSync(this.ownerPath) } catch {}
      this.owned = false
    }
  }
}

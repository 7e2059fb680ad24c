import type { Storage } from 'unstorage'
import type { Candidate, CredentialState } from 'model-proxy'
import { ownValue } from 'model-proxy/kit/guards'
import { fromStorageKeyPart, storageKeyPart } from 'model-proxy/kit/fleet'
import { cooldownMs } from './cooldown.ts'
import type { QuotaWindow } from './rate-limits.ts'
import { mergeRecords, stampPart } from './record-merge.ts'

/** `refused`: the upstream refused the credential itself (401, 403): a last resort while it cools, not a wait (choose.ts). */
export interface ModelCooldown { until: number; failures: number; reason?: string; refused?: true }

/** What routing knows about one credential; shared through storage under `routing:cred:<id>`. */
export interface CredentialRecord {
  blocked?: { reason: string; at: number }
  disabled?: boolean
  /** Quota cooldowns per upstream model (quotas are per model at most vendors). */
  cooldowns: Record<string, ModelCooldown>
  /** Quota windows the upstream last reported (rate-limit headers, sign-in plans' usage windows). */
  windows?: Record<string, QuotaWindow>
  windowsAt?: number
  /** Write time (what instances of versions before `at` compared). */
  rev: number
  /**
   * When each part last changed (epoch ms): `blocked`, `disabled`, `windows`, `cooldown:<model>`; a part
   * stamped here but absent was removed then. Two instances' copies merge part by part (record-merge.ts).
   */
  at?: Record<string, number>
  /** The credential it belongs to (credential-owner.ts): a record under an id now held by another is not that one's. */
  owner?: string
}

const prefix = 'routing:cred:'
/** A credential's key: its id encoded, since ids carry compat provider names, which may hold any character. */
const keyOf = (id: string) => prefix + storageKeyPart(id)
const windowWriteMs = 2000

/**
 * Credential states with the hot path in memory: reads never touch storage; every change is written
 * through, and `sync()` (polled) merges what other instances wrote, part by part.
 */
export class RoutingState {
  private records = new Map<string, CredentialRecord>()
  /** Id -> owner of the credentials configured now; empty: every record is taken as its id's. */
  owners: () => ReadonlyMap<string, string> = () => new Map()

  constructor(private storage: Storage, private onError: (error: unknown) => void = () => {}, private clock: () => number = Date.now) {}

  /** This state's clock (epoch ms): one reading per decision, so every credential is judged at one moment. */
  now(): number {
    return this.clock()
  }

  record(id: string): CredentialRecord | undefined {
    return this.own(id)
  }

  /** The record of the credential now at `id`: one another credential left there (the list moved) is none. */
  private own(id: string): CredentialRecord | undefined {
    const record = this.records.get(id)
    if (!record?.owner) return record
    const owner = this.owners().get(id)
    return owner === undefined || owner === record.owner ? record : undefined
  }

  /** Whether `owner` is the credential configured at `id` now (always, when no owners are tracked). */
  current(id: string, owner: string): boolean {
    const owners = this.owners()
    return owners.size === 0 || owners.get(id) === owner
  }

  /**
   * After the credentials changed (a config reload): each record goes to the id its credential has now
   * (an entry removed above it moved it), unless that id holds a record of its own already.
   */
  follow(): void {
    const owners = this.owners()
    const idOf = new Map<string, string>()
    for (const [id, owner] of owners) if (!idOf.has(owner)) idOf.set(owner, id)
    for (const [id, record] of [...this.records]) {
      if (!record.owner || owners.get(id) === record.owner) continue
      const target = idOf.get(record.owner)
      if (target === undefined || this.own(target)) continue
      const moved = { ...record, cooldowns: { ...record.cooldowns }, rev: Math.max(record.rev, this.records.get(target)?.rev ?? 0) }
      this.records.set(target, moved)
      this.persist(target, moved)
    }
  }

  /** Until when the upstream's refusal of this credential (401, 403) keeps it cooling for the candidate's model, if it does. */
  refusedUntil(candidate: Candidate, now = this.clock()): number | undefined {
    const cooldown = ownValue(this.own(candidate.credential.id)?.cooldowns ?? {}, candidate.upstreamModel)
    return cooldown?.refused && cooldown.until > now ? cooldown.until : undefined
  }

  /** `true` ready, a number = cooling down until then, `false` = blocked or disabled. */
  availability(candidate: Candidate, now = this.clock()): true | number | false {
    const record = this.own(candidate.credential.id)
    if (!record) return true
    if (record.blocked || record.disabled) return false
    const cooldown = ownValue(record.cooldowns, candidate.upstreamModel)
    return cooldown && cooldown.until > now ? cooldown.until : true
  }

  /** The spec's credential state, for listings (cooldown when any of its models cools down). */
  stateOf(id: string, now = this.clock()): CredentialState {
    const record = this.own(id)
    if (!record) return 'ready'
    if (record.disabled) return 'disabled'
    if (record.blocked) return 'blocked'
    return Object.values(record.cooldowns).some(cooldown => cooldown.until > now) ? 'cooldown' : 'ready'
  }

  /** ready -> cooldown on a quota error (or a refusal, `refused`): 1 s * 2^(failures-1), capped at 30 min, or Retry-After. */
  markQuota(id: string, model: string, retryAfterSeconds?: number, reason?: string, refused = false): ModelCooldown {
    const record = this.ensure(id)
    const failures = (ownValue(record.cooldowns, model)?.failures ?? 0) + 1
    const cooldown: ModelCooldown = { until: this.clock() + cooldownMs(failures, retryAfterSeconds), failures, reason }
    if (refused) cooldown.refused = true
    record.cooldowns[model] = cooldown
    this.persist(id, record, `cooldown:${model}`)
    return cooldown
  }

  /** Success resets the failure count; writes only when there was something to reset. */
  markSuccess(id: string, model: string): void {
    const record = this.own(id)
    if (!record || !ownValue(record.cooldowns, model)) return
    delete record.cooldowns[model]
    this.persist(id, record, `cooldown:${model}`)
  }

  /** Windows from the latest answer; shared at most every `windowWriteMs` per credential (they change on every request). */
  setWindows(id: string, windows: Record<string, QuotaWindow>): void {
    const record = this.ensure(id)
    const now = this.clock()
    const due = !record.windowsAt || now - record.windowsAt >= windowWriteMs
    record.windows = windows
    if (!due) return
    record.windowsAt = now
    this.persist(id, record, 'windows')
  }

  block(id: string, reason: string): void {
    const record = this.ensure(id)
    record.blocked = { reason, at: this.clock() }
    this.persist(id, record, 'blocked')
  }

  unblock(id: string): void {
    const record = this.own(id)
    if (!record?.blocked) return
    delete record.blocked
    this.persist(id, record, 'blocked')
  }

  setDisabled(id: string, disabled: boolean): void {
    const record = this.ensure(id)
    if (!!record.disabled === disabled) return
    record.disabled = disabled
    this.persist(id, record, 'disabled')
  }

  resetCooldown(id: string): void {
    const record = this.own(id)
    if (!record) return
    const models = Object.keys(record.cooldowns)
    record.cooldowns = {}
    this.persist(id, record, ...models.map(model => `cooldown:${model}`))
  }

  /**
   * Pull what other instances wrote and merge it into this instance's copies, part by part; write back
   * every record of which this instance knows a later change than the store holds (an instance that had
   * not pulled it yet wrote its own copy over it, a write failed, the store came back empty). Returns
   * how many were written.
   */
  async sync(): Promise<number> {
    const keys = await this.storage.getKeys(prefix.slice(0, -1))
    const items = keys.length ? await this.storage.getItems(keys) : []
    const stored = new Set<string>()
    const behind: string[] = []
    for (const { key, value } of items) {
      const remote = value as CredentialRecord | null
      if (!remote || typeof remote.cooldowns !== 'object' || remote.cooldowns === null) continue
      const id = fromStorageKeyPart(key.slice(prefix.length))
      stored.add(id)
      const local = this.records.get(id)
      // Another credential's record under this id (a list changed): the newer one is the id's, whole.
      if (!local || (local.owner !== undefined && remote.owner !== undefined && local.owner !== remote.owner)) {
        if (!local || remote.rev > local.rev) this.records.set(id, remote)
        else behind.push(id)
        continue
      }
      const { merged, ahead } = mergeRecords(local, remote)
      this.records.set(id, merged)
      if (ahead) behind.push(id)
    }
    for (const id of this.records.keys()) if (!stored.has(id)) behind.push(id)
    for (const id of behind) {
      const record = this.records.get(id)!
      record.rev = Math.max(record.rev + 1, this.clock())
      await this.storage.setItem(keyOf(id), record)
    }
    return behind.length
  }

  /** After the store was away (or came back empty): the same merge and write-back. */
  reconcile(): Promise<number> {
    return this.sync()
  }

  private ensure(id: string): CredentialRecord {
    let record = this.own(id)
    if (!record) {
      // A record another credential left here is replaced; its rev carried, so the new one is the newer copy.
      record = { cooldowns: {}, rev: this.records.get(id)?.rev ?? 0 }
      this.records.set(id, record)
    }
    return record
  }

  private persist(id: string, record: CredentialRecord, ...parts: string[]): void {
    const owner = this.owners().get(id)
    if (owner !== undefined) record.owner = owner
    const now = this.clock()
    for (const part of parts) stampPart(record, part, now)
    record.rev = Math.max(record.rev + 1, now)
    this.storage.setItem(keyOf(id), record).catch(this.onError)
  }
}

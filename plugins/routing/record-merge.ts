import { ownValue } from 'model-proxy/kit/guards'
import type { CredentialRecord } from './state.ts'

/**
 * The parts of a credential's record that change on their own: `blocked`, `disabled`, `windows` and one
 * `cooldown:<model>` per model. Each instance writes the whole record, so without a time per part an
 * instance that had not yet pulled an operator's block (or another instance's cooldown) would write its
 * own copy over it the next time it noted a quota window, and every instance would then take that copy.
 */
const fixedParts = ['blocked', 'disabled', 'windows'] as const

/**
 * When a part last changed (0: never). A record written by a version before stamps changed as a whole
 * at its `rev`: each of its parts, present or absent, is as recent as that.
 */
function stampOf(record: CredentialRecord, part: string): number {
  return record.at ? ownValue(record.at, part) ?? 0 : record.rev
}

function partsOf(record: CredentialRecord): string[] {
  return [...fixedParts, ...Object.keys(record.cooldowns).map(model => `cooldown:${model}`), ...Object.keys(record.at ?? {})]
}

/** Copy one part (its value, or its absence) from `from` into `into`. */
function copyPart(into: CredentialRecord, from: CredentialRecord, part: string): void {
  if (part === 'blocked') {
    if (from.blocked) into.blocked = from.blocked
    else delete into.blocked
  } else if (part === 'disabled') {
    if (from.disabled !== undefined) into.disabled = from.disabled
    else delete into.disabled
  } else if (part === 'windows') {
    if (from.windows) into.windows = from.windows
    else delete into.windows
    if (from.windowsAt !== undefined) into.windowsAt = from.windowsAt
  } else {
    const model = part.slice('cooldown:'.length)
    const cooldown = ownValue(from.cooldowns, model)
    if (cooldown) into.cooldowns[model] = cooldown
    else delete into.cooldowns[model]
  }
}

/** Note that `part` of `record` changes now (its stamp moves past the one it had, whatever the clock says). */
export function stampPart(record: CredentialRecord, part: string, now: number): void {
  const stamp = Math.max(stampOf(record, part) + 1, now)
  // A record from before stamps: every part keeps the time the whole record had.
  record.at ??= Object.fromEntries(partsOf(record).map(name => [name, record.rev]))
  record.at[part] = stamp
}

/**
 * This instance's copy merged with the stored one, part by part: the later change of each part wins
 * (this instance's on a tie: its quota windows change in memory on every answer and are written at most
 * every 2 s under the stamp they were last written with). `ahead`: this instance has a later change of
 * some part than the store: the merged record must be written back.
 */
export function mergeRecords(local: CredentialRecord, stored: CredentialRecord): { merged: CredentialRecord; ahead: boolean } {
  const merged: CredentialRecord = { ...local, cooldowns: { ...local.cooldowns }, at: { ...local.at }, rev: Math.max(local.rev, stored.rev) }
  let ahead = false
  for (const part of new Set([...partsOf(local), ...partsOf(stored)])) {
    const mine = stampOf(local, part)
    const theirs = stampOf(stored, part)
    if (mine > theirs) ahead = true
    else if (theirs > mine) copyPart(merged, stored, part)
    const stamp = Math.max(mine, theirs)
    if (stamp > 0) merged.at![part] = stamp
  }
  return { merged, ahead }
}

import { createHash } from 'node:crypto'
import type { Credential } from 'model-proxy'

const owners = new WeakMap<Credential, string>()

/**
 * Who a credential state belongs to: the upstream account behind the credential, not its place in a
 * list. Key entries are numbered by position (`gamma:1`), so removing one entry moves the next key to
 * its id; a state kept by id alone (a block, a cooldown) then applied to the wrong key. A keyed
 * credential is its family, provider, base URL and key (a short digest: the store never holds the key);
 * a keyless one (a credential file, a keyless compat entry) is its id, which is its name already.
 */
export function ownerOf(credential: Credential): string {
  let owner = owners.get(credential)
  if (owner === undefined) {
    owner = credential.apiKey
      ? `key:${createHash('sha256').update(`${credential.family}\u0000${credential.provider}\u0000${credential.baseUrl}\u0000${credential.apiKey}`).digest('hex').slice(0, 16)}`
      : credential.id
    owners.set(credential, owner)
  }
  return owner
}

const byList = new WeakMap<readonly Credential[], ReadonlyMap<string, string>>()

/** Id -> owner of the credentials configured now (built once per credential list). */
export function ownersById(credentials: readonly Credential[]): ReadonlyMap<string, string> {
  let map = byList.get(credentials)
  if (!map) {
    map = new Map(credentials.map(credential => [credential.id, ownerOf(credential)]))
    byList.set(credentials, map)
  }
  return map
}

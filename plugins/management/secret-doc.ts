import type { Document } from 'yaml'
import type { ProxyConfig } from 'model-proxy'
import { holdsSecretRef } from 'model-proxy/kit/config'
import { hashSecret, isBcryptHash } from './secret.ts'

const path = ['remote-management', 'secret-key']

/**
 * A plain `secret-key` in a document becomes its bcrypt hash (the file never keeps the plain secret).
 * A `${env:…}` / `${file:…}` reference stays: the file does not hold that secret, and the hash of the
 * reference's own text would make that text the management key.
 */
export async function hashPlainSecretIn(doc: Document): Promise<boolean> {
  const value = doc.getIn(path)
  if (typeof value !== 'string' || !value || isBcryptHash(value) || holdsSecretRef(value)) return false
  doc.setIn(path, await hashSecret(value))
  return true
}

const shownHashes = new Map<string, Promise<string>>()

/** The config as GET shows it: a secret the running config holds in plain text (a resolved reference, a hand edit) shown as a hash of it. */
export async function withSecretHidden(config: ProxyConfig): Promise<ProxyConfig> {
  const secret = config['remote-management']['secret-key']
  if (!secret || isBcryptHash(secret)) return config
  if (!shownHashes.has(secret)) {
    shownHashes.clear()
    shownHashes.set(secret, hashSecret(secret))
  }
  return { ...config, 'remote-management': { ...config['remote-management'], 'secret-key': await shownHashes.get(secret)! } }
}

import { isMap, isSeq, type Document } from 'yaml'
import type { ProxyKernel } from 'model-proxy'
import { holdsSecretRef } from 'model-proxy/kit/config'
import { changeOrigin, updateConfig } from '../management/api.ts'
import { clientKeysOf } from './schema.ts'
import { hashClientKey, isKeyHash } from './key-hash.ts'

/**
 * Plain keys written in the YAML become their hashes in the file (as `secret-key` does), found in the
 * file at this write's turn (an index read earlier may name another entry by then). A `${env:…}` or
 * `${file:…}` reference is no plain key: the file does not hold that key, and it stays as written.
 */
function hashPlainKeysIn(doc: Document): void {
  const list = doc.get('client-keys', true)
  if (!isSeq(list)) return
  list.items.forEach((item, index) => {
    const key = isMap(item) ? item.get('key') : undefined
    if (typeof key === 'string' && key && !isKeyHash(key) && !holdsSecretRef(key)) doc.setIn(['client-keys', index, 'key'], hashClientKey(key))
  })
}

/** At start-up and whenever the file brings a new plain key. Without a config file, only the live config changes. */
export async function hashPlainKeys(kernel: ProxyKernel): Promise<void> {
  const entries = clientKeysOf(kernel.config)
  if (!entries.some(entry => !isKeyHash(entry.key))) return
  if (kernel.configFile) {
    await changeOrigin.run('client-keys (plain keys are replaced by their hashes)', () => updateConfig(kernel, hashPlainKeysIn))
    return
  }
  await kernel.applyConfig({ ...kernel.config, 'client-keys': entries.map(entry => ({ ...entry, key: isKeyHash(entry.key) ? entry.key : hashClientKey(entry.key) })) })
}

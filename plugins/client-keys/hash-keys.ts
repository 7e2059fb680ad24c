import type { ProxyKernel } from 'model-proxy'
import { changeOrigin, updateConfig } from '../management/api.ts'
import { clientKeysOf } from './schema.ts'
import { hashClientKey, isKeyHash } from './key-hash.ts'

/**
 * Plain keys written in the YAML become their hashes in the file (as `secret-key` does): at start-up
 * and whenever the file brings a new plain one. Without a config file, only the live config changes.
 */
export async function hashPlainKeys(kernel: ProxyKernel): Promise<void> {
  const entries = clientKeysOf(kernel.config)
  const plain = entries.flatMap((entry, index) => isKeyHash(entry.key) ? [] : [{ index, hash: hashClientKey(entry.key) }])
  if (!plain.length) return
  if (kernel.configFile) {
    await changeOrigin.run('client-keys (plain keys are replaced by their hashes)', () => updateConfig(kernel, (doc) => {
      for (const { index, hash } of plain) doc.setIn(['client-keys', index, 'key'], hash)
    }))
    return
  }
  const hashed = entries.map((entry, index) => ({ ...entry, key: plain.find(p => p.index === index)?.hash ?? entry.key }))
  await kernel.applyConfig({ ...kernel.config, 'client-keys': hashed })
}

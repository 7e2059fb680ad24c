import { isMap, isSeq, type Document } from 'yaml'
import type { ProxyKernel } from 'model-proxy'
import { updateConfig } from '../management/api.ts'
import { clientKeysOf, type ClientKeyEntry } from './schema.ts'

export type KeysChange = { add: ClientKeyEntry } | { replace: string; with: ClientKeyEntry } | { remove: string }

/** The entries after `change` (pure: also what a proxy without a config file applies). */
export function applyChange(entries: ClientKeyEntry[], change: KeysChange): ClientKeyEntry[] {
  if ('add' in change) return [...entries, change.add]
  if ('remove' in change) return entries.filter(entry => entry.name !== change.remove)
  return entries.map(entry => entry.name === change.replace ? change.with : entry)
}

/** Index of the entry named `name` in the document's `client-keys` list. */
function indexIn(doc: Document, name: string): number {
  const list = doc.get('client-keys')
  if (!isSeq(list)) return -1
  return list.items.findIndex(item => isMap(item) && item.get('name') === name)
}

/**
 * Write a change to the YAML in place (other entries keep their comments), or to the live config when
 * the proxy runs without a file.
 */
export async function saveEntries(kernel: ProxyKernel, change: KeysChange): Promise<void> {
  if (!kernel.configFile) {
    await kernel.applyConfig({ ...kernel.config, 'client-keys': applyChange(clientKeysOf(kernel.config), change) })
    return
  }
  await updateConfig(kernel, (doc) => {
    if ('add' in change) {
      if (isSeq(doc.get('client-keys'))) doc.addIn(['client-keys'], doc.createNode(change.add))
      else doc.set('client-keys', doc.createNode([change.add]))
      return
    }
    const at = indexIn(doc, 'remove' in change ? change.remove : change.replace)
    if (at < 0) return
    if ('remove' in change) doc.deleteIn(['client-keys', at])
    else doc.setIn(['client-keys', at], doc.createNode(change.with))
  })
}

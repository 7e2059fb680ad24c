import { isMap, isScalar, parseDocument, type Pair } from 'yaml'
import { configText, keepUntouchedLines } from './keep-lines.ts'

/**
 * Keys that describe one instance, not the fleet: where it listens, its TLS files, its folders. Each
 * instance's file keeps its own values (and their comments); everything else is shared.
 */
export const instanceLocalKeys = ['host', 'port', 'tls', 'auth-dir', 'logs-dir']

const keyOf = (pair: Pair) => isScalar(pair.key) ? pair.key.value : pair.key
const isLocal = (pair: Pair) => instanceLocalKeys.includes(String(keyOf(pair)))

/** The shared part of a config file: the instance-local keys left out (with their comments). */
export function sharedPart(text: string): string {
  const doc = parseDocument(text)
  if (doc.errors.length || !isMap(doc.contents) || !doc.contents.items.some(isLocal)) return text
  doc.contents.items = doc.contents.items.filter(pair => !isLocal(pair))
  return keepUntouchedLines(text, configText(doc))
}

/** A shared text with this instance's own keys put back where its current file has them. */
export function withLocalPart(shared: string, current: string | undefined): string {
  if (current === undefined) return shared
  const mine = parseDocument(current)
  const out = parseDocument(shared)
  if (mine.errors.length || out.errors.length || !isMap(mine.contents) || !isMap(out.contents)) return shared
  const items = mine.contents.items
  if (!items.some(isLocal)) return shared
  const target = out.contents.items
  for (let i = 0; i < items.length; i++) {
    const pair = items[i]!
    if (!isLocal(pair)) continue
    // After the shared key that precedes it in the file, or first.
    let after = -1
    for (let j = i - 1; j >= 0 && after === -1; j--) {
      if (isLocal(items[j]!)) continue
      after = target.findIndex(other => keyOf(other) === keyOf(items[j]!))
      if (after === -1) break
    }
    const placed = target.findIndex(other => isLocal(other) && keyOf(other) === keyOf(pair))
    if (placed !== -1) continue
    target.splice(after + 1 + countLocalAfter(target, after), 0, pair.clone() as (typeof target)[number])
  }
  // The shared lines as the fleet wrote them, this instance's own as its file has them.
  return keepUntouchedLines(current, keepUntouchedLines(shared, configText(out)))
}

/** Local keys already put back right after `index` stay before the next one put there. */
function countLocalAfter(items: Pair[], index: number): number {
  let n = 0
  while (items[index + 1 + n] && isLocal(items[index + 1 + n]!)) n++
  return n
}

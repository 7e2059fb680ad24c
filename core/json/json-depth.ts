/** Deepest nesting a body may have (translation, JSON.stringify and structuredClone recurse); real requests stay under 100. */
export const maxJsonDepth = 256

/** Whether JSON text nests deeper than `limit`: one pass over its brackets, strings skipped with indexOf. */
export function jsonDeeperThan(text: string, limit = maxJsonDepth): boolean {
  if (text.length <= limit) return false // nesting `limit` deep takes at least `limit` characters
  let depth = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === 34) {
      let close = text.indexOf('"', at + 1)
      for (; close !== -1; close = text.indexOf('"', close + 1)) {
        let slashes = 0
        while (text.charCodeAt(close - 1 - slashes) === 92) slashes++
        if (slashes % 2 === 0) break
      }
      if (close === -1) return false
      at = close
    } else if (code === 91 || code === 123) {
      if (++depth > limit) return true
    } else if (code === 93 || code === 125) depth--
  }
  return false
}

/** Depth of a parsed value (YAML documents, envelopes), without recursion. */
export function valueDeeperThan(value: unknown, limit = maxJsonDepth): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (!node || typeof node !== 'object') continue
    if (depth >= limit) return true
    for (const child of Object.values(node)) if (child && typeof child === 'object') stack.push([child, depth + 1])
  }
  return false
}

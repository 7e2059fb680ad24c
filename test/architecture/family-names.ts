/** Source text with comments blanked out (strings and template literals kept, so `'//'` in a URL is not a comment). */
export function stripComments(source: string): string {
  let out = ''
  let i = 0
  while (i < source.length) {
    const c = source[i]!
    const next = source[i + 1]
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++
      continue
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2)
      const stop = end === -1 ? source.length : end + 2
      out += source.slice(i, stop).replace(/[^\n]/g, ' ')
      i = stop
      continue
    }
    if (c === '\'' || c === '"' || c === '`') {
      let j = i + 1
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1
      out += source.slice(i, j + 1)
      i = j + 1
      continue
    }
    out += c
    i++
  }
  return out
}

/** `compatProviderSchema` -> compat, provider, schema; `alpha-api-key` -> alpha, api, key; `v1beta` stays whole. */
export function wordsOf(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).flatMap(part => part.split(/(?<=[a-z0-9])(?=[A-Z])/)).map(word => word.toLowerCase()).filter(Boolean)
}

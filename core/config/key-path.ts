/** `['compat-provider', 0, 'base-url']` -> `compat-provider[0].base-url`: how every config problem names its place. */
export function formatPath(path: PropertyKey[]): string {
  let out = ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`
  return out || '(root)'
}

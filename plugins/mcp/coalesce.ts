/**
 * `task` run for one key at a time: calls that come while it runs make one more run once it ends, not
 * one each. A burst of a server's list-changed notices is thus one or two listings of it, and as many
 * notices to the clients, not one of each per notice.
 */
export function coalesced<K>(task: (key: K) => Promise<void>): (key: K) => Promise<void> {
  const running = new Map<K, Promise<void>>()
  const again = new Set<K>()
  return (key) => {
    const current = running.get(key)
    if (current) {
      again.add(key)
      return current
    }
    const done = (async () => {
      try {
        do {
          again.delete(key)
          await task(key)
        } while (again.has(key))
      } finally {
        running.delete(key)
      }
    })()
    running.set(key, done)
    return done
  }
}

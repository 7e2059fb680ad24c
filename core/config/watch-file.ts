import { realpathSync, statSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'

export interface FileWatch { close(): void }

/** What the poll compares: the file it reaches (through links), its size and time. */
function signature(path: string): string {
  try {
    const info = statSync(path)
    return `${info.ino}:${info.size}:${info.mtimeMs}`
  } catch {
    return 'missing'
  }
}

/**
 * Call `onChange` (debounced) whenever `path` may have changed, however it was changed. A watch on the
 * file itself follows one inode and goes deaf after the first rename-replace (management writes,
 * `sed -i`, editors); so the folder is watched instead, and for a symlinked file the target's folder
 * too (a Kubernetes ConfigMap swaps a `..data` link), re-armed when the link moves. A poll of the
 * file's stat covers file systems that send no events. Callers compare content hashes: an event is
 * only a hint.
 */
export function watchFile(path: string, onChange: () => void, options: { debounceMs?: number; pollMs?: number } = {}): FileWatch {
  const debounceMs = options.debounceMs ?? 100
  const watchers = new Map<string, FSWatcher>()
  let timer: NodeJS.Timeout | undefined
  let last = signature(path)
  let closed = false

  const fire = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      last = signature(path)
      arm()
      onChange()
    }, debounceMs)
  }
  const names = () => {
    const wanted = new Map<string, Set<string>>([[dirname(path), new Set([basename(path)])]])
    try {
      const real = realpathSync(path)
      if (real !== path) {
        const set = wanted.get(dirname(real)) ?? new Set<string>()
        set.add(basename(real))
        wanted.set(dirname(real), set)
      }
    } catch {}
    return wanted
  }
  const arm = () => {
    if (closed) return
    const wanted = names()
    for (const [dir, watcher] of watchers) {
      if (!wanted.has(dir)) {
        watcher.close()
        watchers.delete(dir)
      }
    }
    for (const [dir, files] of wanted) {
      if (watchers.has(dir)) continue
      try {
        const watcher = watch(dir, (_event, file) => {
          // The file itself, or a Kubernetes-style `..data` link swap; not editors' swap files or our temp files.
          if (!file || files.has(String(file)) || String(file).startsWith('..')) fire()
        })
        watcher.on('error', () => {
          watcher.close()
          watchers.delete(dir)
        })
        watchers.set(dir, watcher)
      } catch {}
    }
  }
  arm()
  const poll = setInterval(() => {
    const now = signature(path)
    if (now !== last || watchers.size === 0) {
      if (now !== last) fire()
      else arm()
    }
  }, options.pollMs ?? 2000)
  poll.unref()

  return {
    close() {
      closed = true
      clearTimeout(timer)
      clearInterval(poll)
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
  }
}

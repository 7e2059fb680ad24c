import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

export interface Loaded<T> { data?: T; error?: string; loading: boolean; reload: () => Promise<void> }

/**
 * Load once, and again every `intervalMs` when given (live pages). A failed refresh keeps the last
 * data on screen and shows the error next to it.
 */
export function useLoad<T>(load: () => Promise<T>, intervalMs = 0, deps: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<string>()
  const [loading, setLoading] = useState(true)
  const latest = useRef(load)
  latest.current = load
  const reload = useCallback(async () => {
    try {
      setData(await latest.current())
      setError(undefined)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setLoading(false)
    }
  }, [])
  useEffect(() => {
    void reload()
    if (!intervalMs) return
    const timer = setInterval(() => { if (!document.hidden) void reload() }, intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs, ...deps])
  return { data, error, loading, reload }
}

export interface Notice { kind: 'ok' | 'error'; text: string }

/** Buttons that call the API: one busy flag and one message (success or the call's error) per form. */
export function useAction() {
  const [notice, setNotice] = useState<Notice>()
  const [busy, setBusy] = useState(false)
  const act = useCallback(async <T>(work: () => Promise<T>, success?: string | ((result: T) => string)): Promise<boolean> => {
    setBusy(true)
    setNotice(undefined)
    try {
      const result = await work()
      if (success) setNotice({ kind: 'ok', text: typeof success === 'function' ? success(result) : success })
      return true
    } catch (failure) {
      setNotice({ kind: 'error', text: (failure as Error).message })
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  return { notice, busy, act, setNotice }
}

/** Re-render every second (live countdowns). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

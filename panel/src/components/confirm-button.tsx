import { useEffect, useState } from 'preact/hooks'
import { StableLabel } from './stable-label.tsx'

/** A destructive action asks once more in place (no modal dialog): the first press arms it for 4 s. */
export function ConfirmButton({ label, confirmLabel, onConfirm, disabled }: { label: string; confirmLabel?: string; onConfirm: () => void; disabled?: boolean }) {
  const [armed, setArmed] = useState(false)
  useEffect(() => {
    if (!armed) return
    const timer = setTimeout(() => setArmed(false), 4000)
    return () => clearTimeout(timer)
  }, [armed])
  const confirm = confirmLabel ?? 'Confirm'
  return (
    <button type="button" class={`small ${armed ? 'danger' : ''}`} disabled={disabled} aria-live="polite" aria-label={armed ? `Confirm: ${label.toLowerCase()}` : undefined}
      onClick={() => { if (armed) { setArmed(false); onConfirm() } else setArmed(true) }}>
      <StableLabel current={armed ? confirm : label} variants={[label, confirm]} />
    </button>
  )
}

/**
 * After a confirmed removal the row, and the button that had the focus, are gone: the focus would fall to
 * the page's body and the next Tab start over from the menu. The page's main region takes it instead.
 */
export function focusMain(): void {
  document.getElementById('main')?.focus()
}

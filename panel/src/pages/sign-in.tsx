import { useEffect, useState } from 'preact/hooks'
import { call } from '../api.ts'
import { saveKey } from '../session.ts'
import { TextField } from '../components/field.tsx'
import { ErrorLine } from '../components/notice.tsx'

/**
 * The management key is checked against the server before it is kept (sessionStorage, this tab only).
 * `again`: the key stopped working while a page was open; that page waits, hidden, with its edits.
 */
export function SignIn({ reason, onSignedIn, again = false }: { reason?: string; onSignedIn: () => void; again?: boolean }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState(reason)
  const [busy, setBusy] = useState(false)
  // Over a page (`again`), the focus was in the page now hidden: it goes to the key field.
  useEffect(() => { if (again) document.getElementById('field-management-key')?.focus() }, [again])
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!key.trim()) { setError('Enter the management key.'); return }
    setBusy(true)
    setError(undefined)
    try {
      await call('GET', '/status', undefined, { key: key.trim() })
      saveKey(key.trim())
      onSignedIn()
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="signin" id={again ? 'signin' : 'main'} data-signin-again={again || undefined}>
      <form class="card" onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">model-proxy control panel</h1>
        <p class="muted">Sign in with the management key (<code>remote-management.secret-key</code> or <code>MANAGEMENT_PASSWORD</code>). It is kept in this tab only.</p>
        {again && <p>The management key was refused, so you are signed out. The page you were on is kept with what you typed in it: sign in again to go back to it, then save.</p>}
        <TextField label="Management key" name="management-key" type="password" value={key} onInput={setKey} autoComplete="current-password" required />
        <ErrorLine error={error} />
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Checking…' : 'Sign in'}</button>
      </form>
    </main>
  )
}

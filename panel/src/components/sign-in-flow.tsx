import { useEffect, useRef, useState } from 'preact/hooks'
import { get, post } from '../api.ts'
import { TextField } from './field.tsx'
import { useLoad } from '../hooks.ts'
import { loadFamilies, signInTypes } from '../families.ts'
type Flow = { type: string; state: string; url: string; status: 'wait' | 'ok' | 'error'; text: string }

/**
 * Sign-in buttons: ask the proxy for the provider's authorization URL, open it in a new tab, and
 * follow `get-auth-status` until the sign-in ends. A remote browser can paste the final callback URL.
 */
export function SignInFlows({ onSignedIn }: { onSignedIn: () => void }) {
  // The sign-ins the server's families offer (GET /providers: ProviderDef.credentialFile.oauth).
  const families = useLoad(loadFamilies)
  const types = families.data ? signInTypes(families.data) : []
  const [flow, setFlow] = useState<Flow>()
  const [pasted, setPasted] = useState('')
  const timer = useRef<ReturnType<typeof setInterval>>(undefined)
  useEffect(() => () => clearInterval(timer.current), [])

  const follow = (next: Flow) => {
    clearInterval(timer.current)
    setFlow(next)
    timer.current = setInterval(async () => {
      try {
        const answer = await get<{ status: string; file?: string; error?: string }>(`/get-auth-status?state=${encodeURIComponent(next.state)}`)
        if (answer.status === 'wait') return
        clearInterval(timer.current)
        if (answer.status === 'ok') {
          setFlow({ ...next, status: 'ok', text: `Signed in: saved ${answer.file}` })
          onSignedIn()
        } else {
          setFlow({ ...next, status: 'error', text: `Sign-in failed: ${answer.error}` })
        }
      } catch (error) {
        clearInterval(timer.current)
        setFlow({ ...next, status: 'error', text: (error as Error).message })
      }
    }, 1000)
  }
  const start = async (type: string) => {
    try {
      const { url, state } = await get<{ url: string; state: string }>(`/${type}-auth-url`)
      window.open(url, '_blank', 'noopener')
      follow({ type, state, url, status: 'wait', text: `Waiting for the ${type} sign-in to finish in the other tab…` })
    } catch (error) {
      setFlow({ type, state: '', url: '', status: 'error', text: (error as Error).message })
    }
  }
  const paste = async (event: Event) => {
    event.preventDefault()
    try {
      const answer = await post<{ status: string; file?: string; error?: string }>('/oauth-callback', { url: pasted.trim() })
      if (answer.status !== 'ok') throw new Error(`Sign-in failed: ${answer.error}`)
      clearInterval(timer.current)
      setFlow({ type: flow?.type ?? '', state: '', url: '', status: 'ok', text: `Signed in: saved ${answer.file}` })
      setPasted('')
      onSignedIn()
    } catch (error) {
      setFlow({ type: flow?.type ?? '', state: '', url: '', status: 'error', text: (error as Error).message })
    }
  }
  return (
    <div class="signin-flows">
      <div class="actions">
        {types.map(type => <button type="button" key={type} onClick={() => start(type)} disabled={flow?.status === 'wait' && flow.type === type}>Sign in: {type}</button>)}
      </div>
      {flow && (
        <div class={`notice ${flow.status === 'error' ? 'error' : flow.status === 'ok' ? 'ok' : ''}`} role={flow.status === 'error' ? 'alert' : 'status'} data-signin-status={flow.status}>
          {flow.text}
          {flow.status === 'wait' && flow.url && <> {' '}<a href={flow.url} target="_blank" rel="noopener noreferrer">Open the sign-in page again</a></>}
        </div>
      )}
      <form class="inline-form" onSubmit={paste}>
        <TextField label="Or paste the callback URL" name="callback-url" value={pasted} onInput={setPasted} placeholder={`http://…/${types[0] ?? "<type>"}/callback?code=…&state=…`} />
        <button type="submit" disabled={!pasted.trim()}>Finish sign-in</button>
      </form>
    </div>
  )
}

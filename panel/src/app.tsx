import { useEffect, useState } from 'preact/hooks'
import { setUnauthorizedHandler } from './api.ts'
import { forgetKey, readKey } from './session.ts'
import { pageFromHash, type PageId } from './routes.ts'
import { Nav } from './components/nav.tsx'
import { SignIn } from './pages/sign-in.tsx'
import { Dashboard } from './pages/dashboard.tsx'
import { Providers } from './pages/providers.tsx'
import { Models } from './pages/models.tsx'
import { Chat } from './pages/chat.tsx'
import { ClientKeys } from './pages/client-keys.tsx'
import { NamedKeys } from './pages/named-keys.tsx'
import { McpServers } from './pages/mcp-servers.tsx'
import { RoutingSettings } from './pages/routing.tsx'
import { PayloadRules } from './pages/payload.tsx'
import { CredentialFiles } from './pages/credential-files.tsx'
import { Usage } from './pages/usage.tsx'
import { Logs } from './pages/logs.tsx'
import { Requests } from './pages/requests.tsx'
import { ConfigEditor } from './pages/config.tsx'

const views: Record<PageId, () => preact.JSX.Element> = {
  dashboard: Dashboard, providers: Providers, models: Models, chat: Chat, keys: ClientKeys, 'named-keys': NamedKeys, routing: RoutingSettings, payload: PayloadRules, mcp: McpServers,
  files: CredentialFiles, usage: Usage, requests: Requests, logs: Logs, config: ConfigEditor,
}

/**
 * `signed-out`: no page, only the sign-in form. `lapsed`: the key stopped working while a page was open
 * (a changed secret, a restart with another one): the sign-in form covers the page, which stays mounted
 * and hidden, so what its forms hold is still there after signing in again.
 */
type Session = 'signed-in' | 'lapsed' | 'signed-out'

/** Sign-in gate, then the menu and the page the hash names. */
export function App() {
  const [session, setSession] = useState<Session>(readKey() ? 'signed-in' : 'signed-out')
  const [reason, setReason] = useState<string>()
  const [page, setPage] = useState<PageId>(pageFromHash(location.hash))

  useEffect(() => {
    const onHash = () => setPage(pageFromHash(location.hash))
    addEventListener('hashchange', onHash)
    // A key that stops working sends the operator back to sign-in; the key is forgotten at once (the
    // page sends nothing meanwhile: api.ts), the page's unsaved edits wait behind the sign-in form.
    setUnauthorizedHandler((message) => {
      forgetKey()
      setReason(message)
      setSession(current => current === 'signed-out' ? current : 'lapsed')
    })
    return () => removeEventListener('hashchange', onHash)
  }, [])

  useEffect(() => {
    document.title = `model-proxy · ${page}`
    document.getElementById('main')?.focus()
  }, [page])

  const signedIn = () => { setReason(undefined); setSession('signed-in') }
  if (session === 'signed-out') return <SignIn reason={reason} onSignedIn={signedIn} />
  const View = views[page]
  const lapsed = session === 'lapsed'
  return (
    <>
      {lapsed && <SignIn reason={reason} onSignedIn={signedIn} again />}
      <div class="shell" hidden={lapsed} inert={lapsed}>
        <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus() }}>Skip to content</a>
        <Nav current={page} onSignOut={() => { forgetKey(); setSession('signed-out') }} />
        <main id="main" tabIndex={-1}>
          <View key={page} />
        </main>
      </div>
    </>
  )
}

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

/** Sign-in gate, then the menu and the page the hash names. */
export function App() {
  const [signedIn, setSignedIn] = useState(Boolean(readKey()))
  const [reason, setReason] = useState<string>()
  const [page, setPage] = useState<PageId>(pageFromHash(location.hash))

  useEffect(() => {
    const onHash = () => setPage(pageFromHash(location.hash))
    addEventListener('hashchange', onHash)
    // A key that stops working (changed secret, restart with another one) sends the operator back to sign-in.
    setUnauthorizedHandler((message) => {
      forgetKey()
      setReason(message)
      setSignedIn(false)
    })
    return () => removeEventListener('hashchange', onHash)
  }, [])

  useEffect(() => {
    document.title = `model-proxy · ${page}`
    document.getElementById('main')?.focus()
  }, [page])

  if (!signedIn) return <SignIn reason={reason} onSignedIn={() => { setReason(undefined); setSignedIn(true) }} />
  const View = views[page]
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus() }}>Skip to content</a>
      <Nav current={page} onSignOut={() => { forgetKey(); setSignedIn(false) }} />
      <main id="main" tabIndex={-1}>
        <View key={page} />
      </main>
    </div>
  )
}

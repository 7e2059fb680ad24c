import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { getQuery, type H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { writeFileAtomic } from 'model-proxy/kit/config'
import { describeFamily } from 'model-proxy/kit/models'
import { addManagementRoute, readBody, type Guard, ManagementError } from '../management/api.ts'
import { oauthClientFor } from './oauth-clients.ts'
import { authorizeUrl, completeSignIn, fileNameFor, pkcePair, type SignIn } from './signin.ts'
import type { CredentialFileStore } from './store.ts'
import { SignInStore } from './signin-store.ts'
import type { FileChannel } from './channels.ts'

const page = (title: string, text: string, status = 200) => new Response(
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:3rem"><h1>${title}</h1><p>${text}</p></body>`,
  { status, headers: { 'content-type': 'text/html; charset=utf-8' } },
)
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/**
 * OAuth sign-in (authorization code + PKCE S256): `GET /v0/management/<type>-auth-url` starts one,
 * the vendor redirects the browser to `GET /<type>/callback` (or the operator pastes that URL into
 * `POST /v0/management/oauth-callback`), the code is exchanged and the credential file written;
 * `GET /v0/management/get-auth-status?state=` follows it.
 */
export function addSignInRoutes(kernel: ProxyKernel, guard: Guard | undefined, store: CredentialFileStore, changed: () => void, channels: () => Map<string, FileChannel>): void {
  const pending = new SignInStore(kernel)

  async function finish(state: string, code: string | undefined, error: string | undefined): Promise<SignIn> {
    const signIn = await pending.get(state)
    if (!signIn) throw new ManagementError(400, 'unknown or expired sign-in state')
    if (signIn.status !== 'wait') return signIn
    try {
      if (error || !code) throw new Error(error ? `the provider refused: ${error}` : 'no authorization code in the callback')
      const client = oauthClientFor(kernel.config, signIn.provider, channels())
      if (!client) throw new Error(`sign-in is not configured for ${signIn.provider}`)
      const file = await completeSignIn(client, signIn, code, state)
      store.ensureDir()
      const name = fileNameFor(file)
      await writeFileAtomic(join(store.dir, name), `${JSON.stringify(file, null, 2)}\n`)
      store.load()
      changed()
      Object.assign(signIn, { status: 'ok', file: name })
    } catch (failure) {
      Object.assign(signIn, { status: 'error', error: (failure as Error).message })
    }
    await pending.set(state, signIn)
    return signIn
  }

  // One sign-in per file type of the registered families (a `/{type}/callback` path each).
  for (const type of channels().keys()) {
    if (guard) {
      addManagementRoute(kernel, guard, 'GET', `/${type}-auth-url`, async (event: H3Event) => {
        const client = oauthClientFor(kernel.config, type, channels())
        if (!client?.['authorize-url']) {
          // Named in a user's words: which API the accounts of this type speak, and where.
          const family = [...kernel.providers.values()].find(provider => (provider.credentialFile?.type ?? provider.family) === type)
          throw new ManagementError(400, `sign-in is not configured for ${type}${family ? ` (${describeFamily(family)})` : ''}: set oauth-clients.${type}`)
        }
        const state = randomBytes(16).toString('hex')
        const { verifier, challenge } = pkcePair()
        const redirectUri = `${event.url.origin}/${type}/callback`
        await pending.set(state, { provider: type, verifier, redirectUri, createdAt: Date.now(), status: 'wait' })
        return { status: 'ok', url: authorizeUrl(client, redirectUri, state, challenge), state }
      })
    }
    kernel.app.get(`/${type}/callback`, async (event) => {
      const query = getQuery(event) as Record<string, string | undefined>
      try {
        const result = await finish(query.state ?? '', query.code, query.error)
        return result.status === 'ok'
          ? page('Signed in', `The credential was saved as ${escapeHtml(result.file!)}. You can close this window.`)
          : page('Sign-in failed', escapeHtml(result.error ?? 'unknown error'), 400)
      } catch (error) {
        return page('Sign-in failed', escapeHtml((error as Error).message), 400)
      }
    })
  }
  if (!guard) return

  addManagementRoute(kernel, guard, 'POST', '/oauth-callback', async (event) => {
    const body = await readBody(event) as { url?: unknown; code?: unknown; state?: unknown; error?: unknown } | null
    let params: URLSearchParams
    if (typeof body?.url === 'string') {
      try { params = new URL(body.url).searchParams } catch { throw new ManagementError(400, 'invalid callback URL') }
    } else if (typeof body?.state === 'string') {
      params = new URLSearchParams({ state: body.state, ...(typeof body.code === 'string' && { code: body.code }), ...(typeof body.error === 'string' && { error: body.error }) })
    } else {
      throw new ManagementError(400, 'invalid body')
    }
    const result = await finish(params.get('state') ?? '', params.get('code') ?? undefined, params.get('error') ?? undefined)
    return result.status === 'ok' ? { status: 'ok', file: result.file } : { status: 'error', error: result.error }
  })

  addManagementRoute(kernel, guard, 'GET', '/get-auth-status', async (event) => {
    const signIn = await pending.get(String(getQuery(event).state ?? ''))
    if (!signIn) throw new ManagementError(404, 'unknown or expired sign-in state')
    return signIn.status === 'ok' ? { status: 'ok', file: signIn.file } : signIn.status === 'error' ? { status: 'error', error: signIn.error } : { status: 'wait' }
  })
}

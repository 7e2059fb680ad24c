import { defineProxyPlugin } from 'model-proxy'
import { jsonResponse } from 'model-proxy/kit/http'
import { createPanelPage } from './page.ts'

/**
 * The page may run its own inline script and style and talk to this origin only: nothing is fetched
 * from elsewhere, and no other site may frame it.
 */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
}

/** `GET /management.html`: the control panel (panel/), unless `remote-management.disable-control-panel`. */
export default defineProxyPlugin({
  name: 'panel',
  setup(kernel) {
    const page = createPanelPage(message => kernel.logger.info(message))
    kernel.app.get('/management.html', async () => {
      if (kernel.config['remote-management']['disable-control-panel']) return jsonResponse({ error: 'control panel disabled' }, 404)
      let html: string | undefined
      try {
        html = await page.html()
      } catch (error) {
        kernel.logger.error('control panel build failed:', error)
        return jsonResponse({ error: `control panel build failed: ${(error as Error).message}` }, 500)
      }
      if (!html) return jsonResponse({ error: 'control panel not built: run `npm run build:panel`' }, 404)
      return new Response(html, { headers: pageHeaders })
    })
    // `GET /` points at the panel: a browser is sent there, a program learns where it is.
    kernel.app.get('/', (event) => {
      const panel = !kernel.config['remote-management']['disable-control-panel']
      if (panel && (event.req.headers.get('accept') ?? '').includes('text/html')) return new Response(null, { status: 302, headers: { location: '/management.html' } })
      return jsonResponse({ service: 'model-proxy', ...(panel && { panel: '/management.html' }), models: '/v1/models', management: '/v0/management' })
    })
  },
})

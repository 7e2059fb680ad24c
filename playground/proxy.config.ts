import { defineProxyConfig } from '../core/index.ts'

// The control panel (http://127.0.0.1:8317/management.html) needs a management key. The playground takes it
// from the environment so config.yaml (committed) is never rewritten with a hash; set your own to override.
process.env.MANAGEMENT_PASSWORD ||= 'playground-admin'

export default defineProxyConfig({
  config: './config.yaml',
  plugins: ['./mock-upstream/plugin.ts', './plugins/acme-provider.ts'],
  storage: { driver: 'fs', base: './.data' },
})

import { copyFileSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineProxyConfig } from '../core/index.ts'

// The control panel (http://127.0.0.1:8317/management.html) needs a management key. The playground takes it
// from the environment so the config is never rewritten with a hash; set your own to override.
process.env.MANAGEMENT_PASSWORD ||= 'playground-admin'

// What the panel and the management API write goes to a working copy (git-ignored), made from the
// committed config.yaml on the first start: the committed file never changes under you. Delete
// config.local.yaml to start again from config.yaml. Same folder, so relative paths mean the same.
const committed = fileURLToPath(new URL('./config.yaml', import.meta.url))
const working = fileURLToPath(new URL('./config.local.yaml', import.meta.url))
if (!existsSync(working)) copyFileSync(committed, working)

export default defineProxyConfig({
  config: './config.local.yaml',
  plugins: ['./mock-upstream/plugin.ts', './plugins/acme-provider.ts'],
  storage: { driver: 'fs', base: './.data' },
})

import { defineProxyConfig } from '../core/index.ts'

export default defineProxyConfig({
  config: './config.yaml',
  plugins: ['./mock-upstream/plugin.ts', './plugins/acme-provider.ts'],
  storage: { driver: 'fs', base: './.data' },
})

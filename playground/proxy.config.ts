import { defineProxyConfig } from '../core/index.ts'

export default defineProxyConfig({
  config: './config.yaml',
  plugins: ['./mock-upstream/plugin.ts'],
  storage: { driver: 'fs', base: './.data' },
})

import { defineProxyConfig } from './core/index.ts'

/**
 * The root setup: `npx proxy start` from the repo root reads ./config.yaml (or `--config <file>`),
 * keeps state under ./.data, and loads only the built-in plugins. See playground/ for a full example.
 */
export default defineProxyConfig({
  config: './config.yaml',
  storage: { driver: 'fs', base: './.data' },
})

import { defineProxyConfig } from 'model-proxy'

/**
 * Preset for coding agents (the messages-format CLI, the responses-format CLI, the generateContent
 * CLI): its YAML layer below; no extra plugins beyond the built-ins. Projects extend it with
 * `extends: ['<path to this folder>']` and keep their own YAML on top.
 */
export default defineProxyConfig({
  config: './config.yaml',
  plugins: [],
})

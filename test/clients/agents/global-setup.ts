import { installAgents } from './install.ts'

/** vitest globalSetup: the client lab's agents, installed before any test file runs (skipped when present). */
export default function setup(): void {
  if (process.env.CLIENTS_DIR || process.env.PROXY_SKIP_AGENT_INSTALL === '1') return
  installAgents()
}

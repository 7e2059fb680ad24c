import { existsSync, readFileSync } from 'node:fs'
import { beforeEach } from 'vitest'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The client lab's registry: every client the proxy promises to serve, as the npm package a user
 * installs. `npm test` runs them from this repo's devDependencies (the coding-agent CLIs pinned exactly, at
 * the newest release the lab last passed with); `npm run clients:latest` installs
 * the newest release of each into a temp folder and points CLIENTS_DIR at it (the vitest config then
 * resolves the SDK imports there too).
 */

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
/** The folder whose node_modules holds the SDKs under test. */
export const clientsDir = process.env.CLIENTS_DIR || repoRoot
/** The folder whose node_modules holds the agent CLIs under test. */
export const agentClientsDir = clientsDir
const agentBins = ['claude', 'codex', 'gemini', 'opencode', 'qwen']
/** Why the agent tests cannot run here (an install without devDependencies), or undefined. */
export const agentsUnavailable = agentBins.every(bin => existsSync(join(agentClientsDir, 'node_modules', '.bin', bin)))
  ? undefined
  : `the coding-agent CLIs are not in ${agentClientsDir}/node_modules/.bin: run \`npm ci\` (they are development dependencies)`
const agentIds = new Set<string>(['claude-code', 'codex', 'gemini-cli', 'opencode', 'qwen-code'])

/** Agents (a binary on PATH) and SDKs (imported), with the package that ships each. */
export const clientPackages = {
  'claude-code': '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  'gemini-cli': '@google/gemini-cli',
  opencode: 'opencode-ai',
  'qwen-code': '@qwen-code/qwen-code',
  openai: 'openai',
  anthropic: '@anthropic-ai/sdk',
  genai: '@google/genai',
  ai: 'ai',
  'ai-openai': '@ai-sdk/openai',
  'ai-anthropic': '@ai-sdk/anthropic',
  'ai-google': '@ai-sdk/google',
} as const
export type ClientId = keyof typeof clientPackages

/** Packages imported by test files: in lab mode the vitest config resolves these from CLIENTS_DIR. */
export const sdkPackages: string[] = ['openai', '@anthropic-ai/sdk', '@google/genai', 'ai', '@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/google']

/** The installed version of a client package. */
export function clientVersion(client: ClientId): string {
  const dir = agentIds.has(client) ? agentClientsDir : clientsDir
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', clientPackages[client], 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

/** An agent's executable as npm links it. */
export const clientBin = (bin: string) => join(agentClientsDir, 'node_modules', '.bin', bin)

/** `claude-code 2.1.330`: a row of the client x family matrix. */
export const clientRow = (client: ClientId, flavour?: string) => `${client} ${clientVersion(client)}${flavour ? ` ${flavour}` : ''}`

/**
 * The top-level describe title of a lab suite: `npm run clients:latest` reads the matrix back from these
 * (`[lab] <row> -> <family>`), so every lab test lives under one.
 */
export const labTitle = (row: string, family: string) => `[lab] ${row} -> ${family}`
export const labTitlePattern = /^\[lab\] (.+) -> (\w+)$/

/** In an agent's test file: every test skips, saying why, when the agent CLIs could not be installed. */
export function skipWithoutAgents(): void {
  if (!agentsUnavailable) return
  console.warn(`client lab: skipped: ${agentsUnavailable}`)
  beforeEach(context => context.skip(agentsUnavailable))
}

/**
 * opencode installs `@opencode-ai/plugin` into its config folder in the background on every start (npm,
 * over the network). A folder that already lists it as installed is left alone: this is what a finished
 * install leaves behind, minus the package itself, which `run` never loads.
 */
export function opencodePluginInstalled(): Record<string, string> {
  const dependencies = { '@opencode-ai/plugin': clientVersion('opencode') }
  return {
    '.config/opencode/package.json': JSON.stringify({ dependencies }),
    '.config/opencode/package-lock.json': JSON.stringify({ packages: { '': { dependencies } } }),
    '.config/opencode/node_modules/.keep': '',
  }
}

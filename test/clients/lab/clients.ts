import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The client lab's registry: every client the proxy promises to serve, as the npm package a user
 * installs. `npm test` runs them from this repo's devDependencies; `npm run clients:latest` installs
 * the newest release of each into a temp folder and points CLIENTS_DIR at it (the vitest config then
 * resolves the SDK imports there too).
 */

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
/** The folder whose node_modules holds the clients under test. */
export const clientsDir = process.env.CLIENTS_DIR || repoRoot

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
  const manifest = JSON.parse(readFileSync(join(clientsDir, 'node_modules', clientPackages[client], 'package.json'), 'utf8')) as { version: string }
  return manifest.version
}

/** An agent's executable as npm links it. */
export const clientBin = (bin: string) => join(clientsDir, 'node_modules', '.bin', bin)

/** `claude-code 2.1.330`: a row of the client x family matrix. */
export const clientRow = (client: ClientId, flavour?: string) => `${client} ${clientVersion(client)}${flavour ? ` ${flavour}` : ''}`

/**
 * The top-level describe title of a lab suite: `npm run clients:latest` reads the matrix back from these
 * (`[lab] <row> -> <family>`), so every lab test lives under one.
 */
export const labTitle = (row: string, family: string) => `[lab] ${row} -> ${family}`
export const labTitlePattern = /^\[lab\] (.+) -> (\w+)$/

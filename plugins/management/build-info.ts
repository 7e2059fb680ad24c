import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import pkg from '../../package.json' with { type: 'json' }

const root = fileURLToPath(new URL('../..', import.meta.url))

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown'
  }
}

/** Build information every management response carries (PROXY_COMMIT / PROXY_BUILD_DATE override). */
export const buildHeaders: Record<string, string> = {
  'x-proxy-version': pkg.version,
  'x-proxy-commit': process.env.PROXY_COMMIT ?? gitCommit(),
  'x-proxy-build-date': process.env.PROXY_BUILD_DATE ?? new Date().toISOString(),
}

import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { defineCommand } from 'citty'
import { generateSecret, initialConfig } from '../init-config.ts'
import { exitOnUsageError, UsageError } from '../usage-error.ts'

export default defineCommand({
  meta: { name: 'init', description: 'Write a config.yaml with a generated client key and management key, on loopback' },
  args: {
    config: { type: 'string', description: 'File to write', default: 'config.yaml' },
    force: { type: 'boolean', description: 'Overwrite an existing file' },
  },
  run: exitOnUsageError(async ({ args }) => {
    const path = resolve(args.config)
    if (existsSync(path) && !args.force) throw new UsageError(`${path} exists: pass --force to overwrite it, or --config <other file>`)
    const clientKey = generateSecret('sk-')
    const secret = generateSecret('mgmt-')
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, initialConfig(clientKey, secret), { mode: 0o600 })
    const shown = relative(process.cwd(), path) || path
    const start = shown === 'config.yaml' ? 'npx proxy start' : `npx proxy start --config ${shown}`
    process.stdout.write([
      `wrote ${shown} (readable by you only)`,
      `  client key:      ${clientKey}`,
      `  management key:  ${secret}   (control panel: http://127.0.0.1:8317/management.html)`,
      'Both are shown once: the management key is stored as a bcrypt hash at the first start.',
      `Next: add an upstream (the commented block at the end, docs/upstreams.md), then \`${start}\`.`,
      'It listens on 127.0.0.1 only. To serve other machines set `host` (and TLS, and remote-management.allow-remote);',
      '/metrics then needs the management key (metrics.require-key).',
      '',
    ].join('\n'))
  }),
})


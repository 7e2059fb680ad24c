import { defineCommand } from 'citty'
import { consola } from '../../kernel/logger.ts'
import { buildServer } from '../build-server.ts'
import { exitOnUsageError } from '../usage-error.ts'
import { serverNodeFlags } from '../heap-flags.ts'

export default defineCommand({
  meta: { name: 'build', description: 'Build a standalone server folder from a preset' },
  args: {
    preset: { type: 'string', description: 'Preset name (a folder of plugins/presets/)', required: true },
    out: { type: 'string', description: 'Output folder', required: true },
  },
  run: exitOnUsageError(async ({ args }) => {
    const out = await buildServer(args.preset, args.out)
    consola.success(`built ${out}: start it with \`node ${serverNodeFlags.join(' ')} ${out}/server.mjs\` (or \`npm start\` there)`)
  }),
})

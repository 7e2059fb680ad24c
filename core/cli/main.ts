import { defineCommand, runMain } from 'citty'
import pkg from '../../package.json' with { type: 'json' }
import { helpArgs } from './usage-error.ts'

const main = defineCommand({
  meta: { name: 'proxy', version: pkg.version, description: pkg.description },
  subCommands: {
    init: () => import('./commands/init.ts').then(m => m.default),
    start: () => import('./commands/start.ts').then(m => m.default),
    dev: () => import('./commands/dev.ts').then(m => m.default),
    build: () => import('./commands/build.ts').then(m => m.default),
  },
})

await runMain(main, { rawArgs: helpArgs(process.argv.slice(2)) })

import { createRequire } from 'node:module'
import type { ConsolaInstance } from 'consola'

const require = createRequire(import.meta.url)

/**
 * The process's logger: consola's fancy reporter (icons, colours, the time at the right edge) beside a
 * terminal, its basic one (`[info] [proxy] ...`) when the output goes to a file or a collector. The fancy
 * one's module alone (string widths, an ICU segmenter, an emoji table) kept ~4 MB resident in every
 * server, and it formatted a local time for every line that only a terminal shows (ICU's date data, ~5 MB
 * more of the Node binary). Required, not imported: a static import would load the fancy one everywhere.
 */
export const consola: ConsolaInstance = (process.stdout.isTTY ? require('consola') : require('consola/basic')).consola

// `npm run bench`: prints numbers, asserts nothing (tests assert behaviour).
import { benchRoutingPick } from './routing-pick.ts'
import { benchTranslate } from './translate.ts'

const only = process.argv[2]
const suites: Record<string, () => Promise<Array<Record<string, string | number>>>> = {
  'routing pick+mark': benchRoutingPick,
  'translation µs per request (client row, upstream column; streamed answer)': benchTranslate,
}
for (const [name, run] of Object.entries(suites)) {
  if (only && !name.includes(only)) continue
  console.log(`\n## ${name}`)
  console.table(await run())
}

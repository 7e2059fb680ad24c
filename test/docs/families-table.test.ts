import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

const page = fileURLToPath(new URL('../../docs/upstreams.md', import.meta.url))

/** The rows of the "Which family is my key?" table: family -> [wire format cell, default endpoint cell]. */
function tableRows(markdown: string): Map<string, [string, string]> {
  const section = markdown.slice(markdown.indexOf('## Which family is my key?'))
  const rows = new Map<string, [string, string]>()
  for (const line of section.split('\n').slice(1)) {
    if (line.startsWith('## ')) break
    const cells = line.split('|').slice(1, -1).map(cell => cell.trim())
    if (cells.length === 4 && !/^-+$/.test(cells[0]!) && cells[0] !== 'family') rows.set(cells[0]!, [cells[1]!, cells[2]!])
  }
  return rows
}

describe('docs/upstreams.md: which family is my key', () => {
  let proxy: TestProxy
  beforeAll(async () => { proxy = await startTestProxy({ 'remote-management': { 'secret-key': 'families-doc' } }) })
  afterAll(async () => { await proxy.close() })

  it('names every built-in family with the wire format and default endpoint the registry declares', async () => {
    const { providers } = await (await fetch(`${proxy.url}/v0/management/providers`, { headers: { authorization: 'Bearer families-doc' } })).json() as { providers: Array<Record<string, any>> }
    const rows = tableRows(readFileSync(page, 'utf8'))
    expect(providers.length).toBeGreaterThan(4)
    for (const family of providers) {
      const row = rows.get(family.family)
      expect(row, `${family.family} is missing from the table`).toBeDefined()
      const [format, endpoint] = row!
      expect(format, family.family).toContain(family['wire-format'].split(' (')[0])
      expect(endpoint, family.family).toBe(family['default-base-url'] ? `\`${family['default-base-url']}\`` : 'set per entry (`base-url`)')
    }
  })
})

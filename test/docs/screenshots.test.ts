import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { shotFile, shots } from '../../scripts/panel-screenshots.ts'

const docs = fileURLToPath(new URL('../../docs/', import.meta.url))

describe('the panel screenshots in docs/', () => {
  it('are exactly the ones `npm run screenshots` takes (none drawn by hand), each shown by a page', () => {
    const images = readdirSync(docs).filter(name => name.endsWith('.png')).sort()
    expect(images).toEqual(shots.map(s => shotFile(s.page, s.width)).sort())
    const text = readdirSync(docs).filter(name => name.endsWith('.md')).map(name => readFileSync(join(docs, name), 'utf8')).join('\n')
    for (const image of images) expect(text, `${image} is shown nowhere`).toContain(`](${image})`)
  })
})

import { describe, expect, it } from 'vitest'
import { createStorage } from 'unstorage'
import { fromStorageKeyPart, storageKeyPart } from './key-part.ts'

const odd = [
  'compat:eu/west:0.0', 'compat:a\\b:1.0', 'compat:beta?v=2:0.0', 'compat:a::b:0.0', 'compat:a:0.0', 'compat:a:', ':lead',
  'compat:100%:0.0', 'compat:..:0.0', 'compat:.:0.0', 'compat:a.b:0.0', 'compat:#1:0.0', 'compat:ünïcödé 模型 🚀:0.0', 'compat: spaced out :0.0',
]

describe('storage key parts', () => {
  it.each([
    ['compat:mock:0.1', 'compat:mock:0.1'],
    ['beta:3', 'beta:3'],
    ['file:me@example.com.json', 'file:me@example.com.json'],
    ['compat:eu/west:0.0', 'compat:eu%2Fwest:0.0'],
    ['compat:beta?v=2:0.0', 'compat:beta%3Fv=2:0.0'],
    ['compat:a::b:0.0', 'compat:a%3A%3Ab:0.0'],
    ['compat:100%:0.0', 'compat:100%25:0.0'],
    ['compat:..:0.0', 'compat:%2E%2E:0.0'],
  ])('%s -> %s', (id, part) => {
    expect(storageKeyPart(id)).toBe(part)
    expect(fromStorageKeyPart(part)).toBe(id)
  })

  it('every odd name is stored under a key of its own and read back as itself', async () => {
    const storage = createStorage()
    for (const [i, id] of odd.entries()) await storage.setItem(`routing:cred:${storageKeyPart(id)}`, i)
    const keys = await storage.getKeys('routing:cred')
    expect(keys).toHaveLength(odd.length)
    const read = Object.fromEntries(await Promise.all(keys.map(async key => [fromStorageKeyPart(key.slice('routing:cred:'.length)), await storage.getItem(key)])))
    expect(read).toEqual(Object.fromEntries(odd.map((id, i) => [id, i])))
  })
})

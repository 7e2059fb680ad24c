import { describe, expect, it } from 'vitest'
import { messagesModelPage } from './model-list.ts'

const models = ['a', 'b', 'c', 'd', 'e'].map(id => ({ id, ownedBy: 'p', created: 0 }))
const ids = (page: Array<{ id: string }>) => page.map(model => model.id)

describe('messages model pages', () => {
  it.each<[string, string[], boolean]>([
    ['limit=2', ['a', 'b'], true],
    ['limit=2&after_id=b', ['c', 'd'], true],
    ['limit=2&after_id=c', ['d', 'e'], false],
    ['limit=2&before_id=e', ['c', 'd'], true],
    ['limit=2&before_id=c', ['a', 'b'], false],
    // A cursor whose model left the list between two pages still places the page.
    ['limit=2&after_id=bb', ['c', 'd'], true],
    ['limit=2&before_id=bb', ['a', 'b'], false],
    ['', ['a', 'b', 'c', 'd', 'e'], false],
  ])('%s', (query, page, hasMore) => {
    const result = messagesModelPage(models, new URLSearchParams(query))
    expect({ page: ids(result.page), hasMore: result.hasMore }).toEqual({ page, hasMore })
  })

  it.each(['limit=0', 'limit=1001', 'limit=2.5', 'after_id=a&before_id=c'])('%s is a 400', query => {
    expect(() => messagesModelPage(models, new URLSearchParams(query))).toThrow(expect.objectContaining({ status: 400 }))
  })
})

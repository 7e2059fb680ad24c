import { describe, expect, it } from 'vitest'
import { generateModelPage, pageTokenAfter } from './model-list.ts'

const models = ['a', 'b', 'c', 'd', 'e'].map(id => ({ id, ownedBy: 'p', created: 0 }))
const ids = (page: Array<{ id: string }>) => page.map(model => model.id)

describe('generateContent model pages', () => {
  it('pages by token; one whose model left the list still places the page', () => {
    const first = generateModelPage(models, new URLSearchParams('pageSize=2'))
    expect(ids(first.page)).toEqual(['a', 'b'])
    const second = generateModelPage(models, new URLSearchParams({ pageSize: '2', pageToken: first.nextPageToken! }))
    expect(ids(second.page)).toEqual(['c', 'd'])
    const last = generateModelPage(models, new URLSearchParams({ pageSize: '2', pageToken: second.nextPageToken! }))
    expect(last).toEqual({ page: [models[4]] })
    expect(ids(generateModelPage(models, new URLSearchParams({ pageSize: '2', pageToken: pageTokenAfter('bb') })).page)).toEqual(['c', 'd'])
  })

  it.each([['pageSize=0', 5], ['', 5], ['pageSize=4000', 5]])('%s shows %i', (query, count) => {
    expect(generateModelPage(models, new URLSearchParams(query)).page).toHaveLength(count)
  })
})

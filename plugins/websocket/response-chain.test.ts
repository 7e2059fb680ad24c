import { describe, expect, it } from 'vitest'
import { expandRequest, inputItems, linkAfter, warmupEvents } from './response-chain.ts'

const user = (text: string) => ({ type: 'message', role: 'user', content: text })
const call = { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{}' }
const output = { type: 'function_call_output', call_id: 'call_1', output: 'done' }

describe('inputItems', () => {
  it.each([
    ['hi', [user('hi')]],
    [[output], [output]],
    [undefined, []],
  ])('%j -> items', (input, expected) => {
    expect(inputItems(input)).toEqual(expected)
  })
})

describe('expandRequest', () => {
  const last = { id: 'resp_1', items: [user('hi'), call] }

  it.each([
    ['no previous id: sent as is, minus generate', { model: 'm', input: 'hi', generate: false }, undefined, { body: { model: 'm', input: 'hi' } }],
    ['previous id of the latest response: the whole conversation', { model: 'm', previous_response_id: 'resp_1', input: [output] }, last, { body: { model: 'm', input: [user('hi'), call, output] } }],
    ['string input after a chain', { model: 'm', previous_response_id: 'resp_1', input: 'more' }, last, { body: { model: 'm', input: [user('hi'), call, user('more')] } }],
  ])('%s', (_name, body, link, expected) => {
    expect(expandRequest(body, link)).toEqual(expected)
  })

  it.each([
    ['an older id', 'resp_0', last],
    ['nothing remembered', 'resp_1', undefined],
  ])('refuses %s with previous_response_not_found', (_name, previous, link) => {
    const result = expandRequest({ model: 'm', previous_response_id: previous, input: [output] }, link)
    expect(result).toMatchObject({ error: { status: 400, error: { code: 'previous_response_not_found', param: 'previous_response_id' } } })
  })
})

describe('linkAfter', () => {
  it('remembers the full input then the output', () => {
    expect(linkAfter({ input: [user('hi')] }, { id: 'resp_2', output: [call] })).toEqual({ id: 'resp_2', items: [user('hi'), call] })
  })
  it('remembers nothing without an id', () => {
    expect(linkAfter({ input: 'hi' }, {})).toBeUndefined()
  })
})

describe('warmupEvents', () => {
  it('is a created then completed response with no output', () => {
    const [created, completed] = warmupEvents('via-gamma', 'resp_w', 100)
    expect(created).toMatchObject({ type: 'response.created', response: { id: 'resp_w', status: 'in_progress', model: 'via-gamma', output: [] } })
    expect(completed).toMatchObject({ type: 'response.completed', response: { id: 'resp_w', status: 'completed', output: [], usage: { total_tokens: 0 } } })
  })
})

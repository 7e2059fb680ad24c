import { describe, expect, it } from 'vitest'
import type { Part } from 'model-proxy'
import { isEnvelope } from 'model-proxy/kit/signatures'
import { blocksFromParts, partsFromBlocks } from './blocks.ts'

const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'paris weather' } }
const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://w.example/paris', title: 'Paris', encrypted_content: 'EqgfCioIARgB', page_age: 'April 1, 2025' }] }
const cited = { type: 'text', text: 'It is sunny.', citations: [{ type: 'web_search_result_location', url: 'https://w.example/paris', title: 'Paris', cited_text: 'Sunny all day', encrypted_index: 'Eo8BCioIAhgB' }] }

describe('messages web search blocks <-> canonical', () => {
  it.each<[string, unknown[], Part[]]>([
    ['a search with results, and the text citing them', [use, result, cited], [
      { type: 'web_search', id: 'srvtoolu_1', query: 'paris weather', sources: [{ url: 'https://w.example/paris', title: 'Paris', pageAge: 'April 1, 2025', opaque: 'EqgfCioIARgB' }], origin: 'messages' },
      { type: 'text', text: 'It is sunny.', citations: [{ url: 'https://w.example/paris', title: 'Paris', citedText: 'Sunny all day', opaque: 'Eo8BCioIAhgB', origin: 'messages' }] },
    ]],
    ['a failed search keeps its error code', [use, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }], [
      { type: 'web_search', id: 'srvtoolu_1', query: 'paris weather', sources: [], error: 'max_uses_exceeded', origin: 'messages' },
    ]],
    ['other citation kinds (documents) are not web sources', [{ type: 'text', text: 'x', citations: [{ type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 }] }], [{ type: 'text', text: 'x' }]],
  ])('%s', (_name, blocks, parts) => {
    expect(partsFromBlocks(blocks)).toEqual(parts)
    // Anthropic's own search goes back to Anthropic whole, encrypted values included.
    expect(blocksFromParts(parts, 'upstream')).toEqual(JSON.parse(JSON.stringify(blocks)).map((block: any) => block.type === 'text' && block.citations?.[0]?.type !== 'web_search_result_location' ? { type: 'text', text: block.text } : block))
  })

  const foreign: Part[] = [
    { type: 'web_search', id: 'ws_9', query: 'q', sources: [{ url: 'https://a.example/' }], origin: 'responses' },
    { type: 'text', text: 'Answer here.', citations: [{ url: 'https://a.example/', title: 'A', start: 7, end: 11, origin: 'responses' }] },
  ]
  it('another vendor\'s search reaches a client with markers in the encrypted slots, and the span it cites', () => {
    const [useBlock, resultBlock, text] = blocksFromParts(foreign, 'client')
    expect(useBlock).toEqual({ type: 'server_tool_use', id: 'srvtoolu_ws_9', name: 'web_search', input: { query: 'q' } })
    expect(resultBlock).toMatchObject({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_ws_9', content: [{ type: 'web_search_result', url: 'https://a.example/', title: 'https://a.example/', page_age: null }] })
    expect(isEnvelope(resultBlock!.content[0].encrypted_content)).toBe(true)
    expect(text!.citations[0]).toMatchObject({ type: 'web_search_result_location', url: 'https://a.example/', title: 'A', cited_text: 'here' })
    expect(isEnvelope(text!.citations[0].encrypted_index)).toBe(true)
  })
  it('...and never reaches Anthropic: the replay keeps the text only', () => {
    const replayed = partsFromBlocks(blocksFromParts(foreign, 'client'))
    expect(replayed[0]).toMatchObject({ type: 'web_search', origin: 'responses' })
    expect(blocksFromParts(replayed, 'upstream')).toEqual([{ type: 'text', text: 'Answer here.' }])
  })
})

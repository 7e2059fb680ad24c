import { describe, expect, it } from 'vitest'
import type { Part } from 'model-proxy'
import { partsFromOutput } from './response-decode.ts'
import { buildOutput } from './output-items.ts'

const call = { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'paris weather', sources: [{ type: 'url', url: 'https://w.example/paris' }] } }
const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is sunny in Paris.', annotations: [{ type: 'url_citation', start_index: 0, end_index: 12, url: 'https://w.example/paris', title: 'Paris' }] }] }

describe('responses web search items <-> canonical', () => {
  it.each<[string, unknown[], Part[]]>([
    ['a search call and the text citing it', [call, message], [
      { type: 'web_search', id: 'ws_1', query: 'paris weather', sources: [{ url: 'https://w.example/paris' }], origin: 'responses' },
      { type: 'text', text: 'It is sunny in Paris.', citations: [{ url: 'https://w.example/paris', title: 'Paris', start: 0, end: 12, origin: 'responses' }] },
    ]],
    ['a failed search', [{ id: 'ws_2', type: 'web_search_call', status: 'failed', action: { type: 'search', query: 'x' } }], [{ type: 'web_search', id: 'ws_2', query: 'x', sources: [], error: 'failed', origin: 'responses' }]],
    ['an open_page action has no query', [{ id: 'ws_3', type: 'web_search_call', status: 'completed', action: { type: 'open_page', url: 'https://a.example/' } }], [{ type: 'web_search', id: 'ws_3', sources: [], origin: 'responses' }]],
    ['file citations are not web sources', [{ ...message, content: [{ type: 'output_text', text: 'x', annotations: [{ type: 'file_citation', file_id: 'f', index: 0 }] }] }], [{ type: 'text', text: 'x' }]],
  ])('%s', (_name, output, parts) => {
    expect(partsFromOutput(output)).toEqual(parts)
  })

  it('encodes searches as items and citations as url_citation; a whole-block citation spans its text', () => {
    const output = buildOutput([
      { type: 'web_search', id: 'srvtoolu_1', query: 'q', sources: [{ url: 'https://a.example/', title: 'A', opaque: 'SECRET' }], origin: 'messages' },
      { type: 'text', text: 'Cited text.', citations: [{ url: 'https://a.example/', title: 'A', citedText: 'Cited', opaque: 'SECRET2', origin: 'messages' }] },
    ], 'resp_x', 'completed')
    expect(output[0]).toEqual({ id: 'ws_x_0', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q', sources: [{ type: 'url', url: 'https://a.example/' }] } })
    expect(output[1]).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Cited text.', annotations: [{ type: 'url_citation', start_index: 0, end_index: 11, url: 'https://a.example/', title: 'A' }] }] })
    // Anthropic's encrypted values never leave for another format.
    expect(JSON.stringify(output)).not.toContain('SECRET')
  })
})

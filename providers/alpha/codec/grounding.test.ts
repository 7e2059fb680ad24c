import { describe, expect, it } from 'vitest'
import type { Part } from 'model-proxy'
import { groundParts, groundingFrom, groundingTo } from './grounding.ts'

const metadata = {
  webSearchQueries: ['café paris', 'paris weather'],
  groundingChunks: [{ web: { uri: 'https://vertexaisearch.example/1', title: 'meteo.fr' } }, { web: { uri: 'https://vertexaisearch.example/2', title: 'bbc.com' } }],
  // "Le café est ouvert." is 20 bytes (é is 2) and 19 characters.
  groundingSupports: [
    { segment: { startIndex: 0, endIndex: 20, text: 'Le café est ouvert.' }, groundingChunkIndices: [0, 1] },
    { segment: { startIndex: 21, endIndex: 32, text: 'Il fait 20.' }, groundingChunkIndices: [1] },
  ],
}

describe('Gemini grounding <-> canonical', () => {
  it('byte offsets become character offsets; one search per query, the pages on the first', () => {
    const grounding = groundingFrom(metadata, 'Le café est ouvert. Il fait 20.', 'r')
    expect(grounding.searches).toEqual([
      { type: 'web_search', id: 'r_0', query: 'café paris', sources: [{ url: 'https://vertexaisearch.example/1', title: 'meteo.fr' }, { url: 'https://vertexaisearch.example/2', title: 'bbc.com' }], origin: 'generate' },
      { type: 'web_search', id: 'r_1', query: 'paris weather', sources: [], origin: 'generate' },
    ])
    expect(grounding.citations.map(c => [c.start, c.end, c.citation.title])).toEqual([[0, 19, 'meteo.fr'], [0, 19, 'bbc.com'], [20, 31, 'bbc.com']])
  })

  it.each<[string, Part[], string]>([
    ['one text part', [{ type: 'text', text: 'Le café est ouvert. Il fait 20.' }], 'Il fait 20.'],
    ['two text parts: the citation lands on the second, relative to it', [{ type: 'text', text: 'Le café est ouvert. ' }, { type: 'text', text: 'Il fait 20.' }], 'Il fait 20.'],
  ])('groundParts: %s', (_name, parts, last) => {
    const grounded = groundParts(structuredClone(parts), metadata, 'r')
    expect(grounded.map(part => part.type)).toEqual(['web_search', 'web_search', ...parts.map(() => 'text')])
    const texts = grounded.filter(part => part.type === 'text')
    const final = texts.at(-1)!.citations!.at(-1)!
    expect(texts.at(-1)!.text.slice(final.start, final.end)).toBe(last)
  })

  it('a segment whose offsets are off is found by its text', () => {
    const grounding = groundingFrom({ groundingChunks: [{ web: { uri: 'u', title: 't' } }], groundingSupports: [{ segment: { startIndex: 3, endIndex: 9, text: 'world' }, groundingChunkIndices: [0] }] }, 'hello world', 'r')
    expect(grounding.citations[0]).toMatchObject({ start: 6, end: 11, citation: { citedText: 'world' } })
  })

  it('canonical -> groundingMetadata with byte offsets over the joined text', () => {
    const back = groundingTo([{ type: 'web_search', id: 'x', query: 'q', sources: [{ url: 'https://a.example/', title: 'A' }] }], [
      { type: 'text', text: 'Café ' },
      { type: 'text', text: 'ouvert.', citations: [{ url: 'https://a.example/', title: 'A' }, { url: 'https://b.example/', start: 0, end: 6 }] },
    ])
    expect(back).toEqual({
      webSearchQueries: ['q'],
      groundingChunks: [{ web: { uri: 'https://a.example/', title: 'A' } }, { web: { uri: 'https://b.example/', title: 'https://b.example/' } }],
      groundingSupports: [
        { segment: { startIndex: 6, endIndex: 13, text: 'ouvert.' }, groundingChunkIndices: [0] },
        { segment: { startIndex: 6, endIndex: 12, text: 'ouvert' }, groundingChunkIndices: [1] },
      ],
    })
    expect(groundingTo([], [{ type: 'text', text: 'plain' }])).toBeUndefined()
  })
})

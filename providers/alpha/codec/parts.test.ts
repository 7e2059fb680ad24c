import { describe, expect, it } from 'vitest'
import type { Part } from 'model-proxy'
import { CallLedger, partsFromGenerate, partsToGenerate, resultObject, toolResultText } from './parts.ts'

describe('toolResultText', () => {
  it.each([
    ['a result string', { result: 'sunny' }, 'sunny'],
    ['an output string', { output: 'sunny' }, 'sunny'],
    ['the Vercel AI SDK text wrapper', { name: 'get_weather', content: 'sunny' }, 'sunny'],
    ['the Vercel AI SDK json wrapper', { name: 'get_weather', content: { temp: 21 } }, '{"temp":21}'],
    ['content alone', { content: 'sunny' }, 'sunny'],
    ['an output string next to other fields (kept whole)', { output: 'done', exitCode: 1 }, '{"output":"done","exitCode":1}'],
    ['a result string next to other fields (kept whole)', { result: 'ok', truncated: true }, '{"result":"ok","truncated":true}'],
    ['content next to other fields (kept whole)', { content: 'sunny', unit: 'C' }, '{"content":"sunny","unit":"C"}'],
    ['any other object', { temp: 21 }, '{"temp":21}'],
    ['nothing', undefined, '{}'],
  ])('%s', (_name, response, text) => {
    expect(toolResultText(response)).toBe(text)
  })

  it('is what a functionResponse part carries to other families', () => {
    const parts = partsFromGenerate([{ functionResponse: { id: 'call_1', name: 'get_weather', response: { name: 'get_weather', content: 'sunny' } } }], new CallLedger())
    expect(parts).toEqual([{ type: 'tool_result', callId: 'call_1', name: 'get_weather', content: 'sunny' }])
  })

  it('a failure with more than its error keeps the rest', () => {
    const parts = partsFromGenerate([{ functionResponse: { name: 'run', response: { error: 'exit 2', stderr: 'no such file' } } }], new CallLedger())
    expect(parts).toMatchObject([{ type: 'tool_result', content: '{"error":"exit 2","stderr":"no such file"}', isError: true }])
  })
})

describe('resultObject: a tool result as the functionResponse response', () => {
  it.each([
    ['a JSON object', '{"a":1}', false, { a: 1 }],
    ['a JSON object after whitespace', ' \n\t{"a":[1]}', false, { a: [1] }],
    ['plain text', 'file contents\n  const x = 1', false, { result: 'file contents\n  const x = 1' }],
    ['a JSON array is text', '[1,2]', false, { result: '[1,2]' }],
    ['a brace that is not JSON', '{ not json', false, { result: '{ not json' }],
    ['an error: any JSON value', ' [1]', true, { error: [1] }],
    ['an error: a JSON string', '"denied"', true, { error: 'denied' }],
    ['an error: a number', '-4', true, { error: -4 }],
    ['an error: a literal', 'null', true, { error: null }],
    ['an error: plain text', 'permission denied', true, { error: 'permission denied' }],
    ['an error: text that starts like a literal', 'nope', true, { error: 'nope' }],
  ] as const)('%s', (_, text, isError, expected) => {
    expect(resultObject(text, isError)).toStrictEqual(expected)
  })
})

describe('partsFromGenerate: what has no canonical form is named', () => {
  it.each<[string, unknown[], string[]]>([
    ['a video clip\'s videoMetadata beside its fileData', [{ fileData: { mimeType: 'video/mp4', fileUri: 'https://youtu.be/x' }, videoMetadata: { startOffset: '10s', endOffset: '20s' } }], ['part:videoMetadata']],
    ['a part\'s mediaResolution', [{ inlineData: { mimeType: 'image/png', data: 'AA==' }, mediaResolution: { level: 'MEDIA_RESOLUTION_HIGH' } }], ['part:mediaResolution']],
    ['code execution', [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }], ['part:executableCode']],
    ['a PDF a function returned', [{ functionResponse: { name: 'f', response: { result: 'ok' }, parts: [{ inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } }] } }], ['functionResponse.parts']],
    ['an image a function returned is carried', [{ functionResponse: { name: 'f', response: { result: 'ok' }, parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }], []],
    ['a signed text part', [{ text: 'x', thoughtSignature: 'sig' }], []],
  ])('%s', (_name, raw, named) => {
    const unmapped = new Set<string>()
    partsFromGenerate(raw, new CallLedger(), unmapped)
    expect([...unmapped]).toEqual(named)
  })
})

describe('partsFromGenerate in an answer: thought parts in a row are one thinking, text parts one text, as a stream reads them', () => {
  const thinking = (text: string, signature?: string) => ({ type: 'thinking', text, origin: 'generate', ...(signature && { signature }) })
  it.each<[string, unknown[], unknown[]]>([
    ['two thought parts', [{ text: 'a', thought: true }, { text: 'b', thought: true }], [thinking('ab')]],
    ['the second signed', [{ text: 'a', thought: true }, { text: 'b', thought: true, thoughtSignature: 's2' }], [thinking('ab', 's2')]],
    ['the first signed', [{ text: 'a', thought: true, thoughtSignature: 's1' }, { text: 'b', thought: true }], [thinking('ab', 's1')]],
    ['both signed: the last signs', [{ text: 'a', thought: true, thoughtSignature: 's1' }, { text: 'b', thought: true, thoughtSignature: 's2' }], [thinking('ab', 's2')]],
    ['a text part between them parts them', [{ text: 'a', thought: true }, { text: 'x' }, { text: 'b', thought: true }], [thinking('a'), { type: 'text', text: 'x' }, thinking('b')]],
    ['a signed text part signs apart', [{ text: 'a', thought: true }, { text: 'x', thoughtSignature: 's' }], [thinking('a'), thinking('', 's'), { type: 'text', text: 'x' }]],
    ['text parts in a row are one text', [{ text: 'x' }, { text: '' }, { text: 'y' }], [{ type: 'text', text: 'xy' }]],
    ['a call between them parts them', [{ text: 'x' }, { functionCall: { id: 'c', name: 'f', args: {} } }, { text: 'y' }], [{ type: 'text', text: 'x' }, { type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }, { type: 'text', text: 'y' }]],
    ['a signed text part starts a text of its own', [{ text: 'x' }, { text: 'y', thoughtSignature: 's' }], [{ type: 'text', text: 'x' }, thinking('', 's'), { type: 'text', text: 'y' }]],
  ])('%s', (_name, raw, parts) => {
    expect(partsFromGenerate(raw, new CallLedger(), undefined, true)).toEqual(parts)
  })
})

describe('partsToGenerate for a client: an empty text is no part, as in a stream', () => {
  const call = { type: 'tool_call' as const, id: 'c1', name: 'f', arguments: '{}' }
  it.each<[string, Part[], unknown[]]>([
    ['an empty text beside a call', [call, { type: 'text', text: '' }], [{ functionCall: { id: 'c1', name: 'f', args: {} }, thoughtSignature: expect.any(String) }]],
    ['an empty text alone', [{ type: 'text', text: '' }], []],
    ['an empty text carrying a signature', [{ type: 'thinking', text: '', signature: 's', origin: 'generate' }, { type: 'text', text: '' }], [{ text: '', thoughtSignature: 's' }]],
    ['text', [{ type: 'text', text: 'a' }], [{ text: 'a' }]],
  ])('%s', (_name, parts, wire) => {
    expect(partsToGenerate(parts, new CallLedger(), 'client')).toEqual(wire)
  })
})

import { describe, expect, it } from 'vitest'
import { RequestValidationError, type CanonicalRequest } from 'model-proxy'
import { decodeCompact, decodeRequest } from './request-decode.ts'

const base = { model: 'gpt-5.1-codex' }
const decode = (body: Record<string, unknown>) => decodeRequest({ ...base, ...body })

describe('request decode: input', () => {
  it.each<[string, Record<string, unknown>, CanonicalRequest['messages']]>([
    ['string input is one user message', { input: 'hi' }, [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }]],
    ['instructions lead as system', { instructions: 'Be brief.', input: 'hi' }, [
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    ]],
    ['instructions alone', { instructions: 'Say hi.' }, [{ role: 'system', parts: [{ type: 'text', text: 'Say hi.' }] }]],
    ['message without type, string content', { input: [{ role: 'user', content: 'a' }] }, [{ role: 'user', parts: [{ type: 'text', text: 'a' }] }]],
    ['developer and system become system', { input: [{ type: 'message', role: 'developer', content: 'd' }, { role: 'system', content: [{ type: 'input_text', text: 's' }] }] }, [
      { role: 'system', parts: [{ type: 'text', text: 'd' }] },
      { role: 'system', parts: [{ type: 'text', text: 's' }] },
    ]],
    ['input parts: text, data image, url image, file_id image, file, refusal', {
      input: [{ role: 'user', content: [
        { type: 'input_text', text: 't' },
        { type: 'input_image', image_url: 'data:image/jpeg;base64,QUJD', detail: 'high' },
        { type: 'input_image', image_url: 'https://x.test/cat.png' },
        { type: 'input_image', file_id: 'file-123' },
        { type: 'input_file', file_id: 'file-9', filename: 'a.pdf' },
      ] }, { role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] }],
    }, [
      { role: 'user', parts: [
        { type: 'text', text: 't' },
        { type: 'image', mediaType: 'image/jpeg', data: 'QUJD', detail: 'high' },
        { type: 'image', url: 'https://x.test/cat.png' },
        { type: 'text', text: '[input_image file_id=file-123]' },
        { type: 'file', fileId: 'file-9', origin: 'responses', filename: 'a.pdf', mediaType: 'application/pdf' },
      ] },
      { role: 'assistant', parts: [{ type: 'text', text: 'no', refusal: true }] },
    ]],
    ['one assistant turn: reasoning, text and consecutive function calls join', {
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'a' }, { type: 'summary_text', text: 'b' }], encrypted_content: 'ENC' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'noon' }, { type: 'input_image', image_url: 'data:image/png;base64,AA==' }] },
      ],
    }, [
      { role: 'user', parts: [{ type: 'text', text: 'weather?' }] },
      { role: 'assistant', parts: [
        { type: 'thinking', text: 'a\n\nb', signature: 'ENC', origin: 'responses' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{}' },
      ] },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'call_1', name: 'get_weather', content: '18C' }] },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'call_2', name: 'get_time', content: [{ type: 'text', text: 'noon' }, { type: 'image', mediaType: 'image/png', data: 'AA==' }] }] },
    ]],
    ['reasoning without summary keeps only the signature; empty reasoning is dropped', {
      input: [{ type: 'reasoning', summary: [], encrypted_content: 'E' }, { type: 'reasoning', summary: [] }, { role: 'user', content: 'x' }],
    }, [
      { role: 'assistant', parts: [{ type: 'thinking', text: '', signature: 'E', origin: 'responses' }] },
      { role: 'user', parts: [{ type: 'text', text: 'x' }] },
    ]],
    ['output of an unknown call has no name; missing arguments are {}', {
      input: [{ type: 'function_call', call_id: 'c', name: 'f' }, { type: 'function_call_output', call_id: 'z', output: 'r' }],
    }, [
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }] },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'z', content: 'r' }] },
    ]],
    ['items with no canonical place are skipped', {
      input: [{ type: 'item_reference', id: 'msg_1' }, { type: 'web_search_call', id: 'ws_1', status: 'completed' }, { role: 'user', content: 'x' }],
    }, [{ role: 'user', parts: [{ type: 'text', text: 'x' }] }]],
  ])('%s', (_name, body, messages) => {
    expect(decode(body).messages).toEqual(messages)
  })
})

describe('request decode: parameters', () => {
  it('maps every mapped field', () => {
    const request = decode({
      input: 'hi', stream: true, max_output_tokens: 500, temperature: 0.2, top_p: 0.9, parallel_tool_calls: false, user: 'u1',
      reasoning: { effort: 'high', summary: 'detailed' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
      tools: [
        { type: 'function', name: 'f', description: 'F', parameters: { type: 'object', properties: {} }, strict: false },
        { type: 'web_search' },
      ],
      tool_choice: { type: 'function', name: 'f' },
      store: false, include: ['reasoning.encrypted_content'], previous_response_id: 'resp_1', prompt_cache_key: 'k',
    })
    expect(request).toEqual({
      model: 'gpt-5.1-codex',
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
      stream: true, maxTokens: 500, temperature: 0.2, topP: 0.9, parallelToolCalls: false, user: 'u1',
      reasoning: { effort: 'high', includeThoughts: true },
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      tools: [{ name: 'f', description: 'F', parameters: { type: 'object', properties: {} }, strict: false }],
      toolChoice: { name: 'f' },
      store: false, promptCacheKey: 'k', verbosity: 'low', webSearch: {},
      extensions: { responses: {
        include: ['reasoning.encrypted_content'], previous_response_id: 'resp_1',
        tools: [{ type: 'function', name: 'f', strict: false }, { type: 'web_search' }],
        reasoning: { summary: 'detailed' },
      } },
      // What another format cannot take.
      unmapped: ['previous_response_id'],
    })
  })

  it.each<[string, unknown, unknown]>([
    ['none', 'none', 'none'],
    ['auto', 'auto', 'auto'],
    ['required', 'required', 'required'],
    ['function object', { type: 'function', name: 'f' }, { name: 'f' }],
  ])('tool_choice %s', (_name, wire, canonical) => {
    expect(decode({ input: 'x', tool_choice: wire }).toolChoice).toEqual(canonical)
  })

  it('keeps a built-in tool choice in extensions', () => {
    const request = decode({ input: 'x', tool_choice: { type: 'web_search_preview' } })
    expect(request.toolChoice).toBeUndefined()
    expect(request.extensions?.responses?.tool_choice).toEqual({ type: 'web_search_preview' })
  })

  it.each<[string, unknown, unknown]>([
    ['effort without summary: no thoughts', { effort: 'low' }, { effort: 'low', includeThoughts: false }],
    ['summary auto', { effort: 'minimal', summary: 'auto' }, { effort: 'minimal', includeThoughts: true }],
    ['summary only', { summary: 'concise' }, { includeThoughts: true }],
    ['xhigh', { effort: 'xhigh', summary: null }, { effort: 'xhigh', includeThoughts: false }],
  ])('reasoning: %s', (_name, wire, canonical) => {
    expect(decode({ input: 'x', reasoning: wire }).reasoning).toEqual(canonical)
  })

  it.each<[string, unknown, unknown]>([
    ['text', { type: 'text' }, { type: 'text' }],
    ['json_object', { type: 'json_object' }, { type: 'json_object' }],
    ['json_schema', { type: 'json_schema', name: 'n', schema: { type: 'object' } }, { type: 'json_schema', name: 'n', schema: { type: 'object' } }],
  ])('text.format %s', (_name, wire, canonical) => {
    expect(decode({ input: 'x', text: { format: wire } }).responseFormat).toEqual(canonical)
  })

  it('has no extensions when every field is mapped', () => {
    expect(decode({ input: 'x', temperature: 1 }).extensions).toBeUndefined()
  })

  it('compact requests never stream', () => {
    expect(decodeCompact({ ...base, input: 'x', stream: true, previous_response_id: 'resp_1' })).toMatchObject({ stream: false, extensions: { responses: { previous_response_id: 'resp_1' } } })
  })
})

describe('request decode: validation', () => {
  it.each<[string, unknown, string | undefined]>([
    ['not an object', [1], undefined],
    ['missing model', { input: 'x' }, 'model'],
    ['empty model', { model: '', input: 'x' }, 'model'],
    ['no input and no instructions', { model: 'm' }, 'input'],
    ['null input and no instructions', { model: 'm', input: null }, 'input'],
    ['empty input array', { model: 'm', input: [] }, 'input'],
    ['input a number', { model: 'm', input: 3 }, 'input'],
    ['instructions a number', { model: 'm', input: 'x', instructions: 1 }, 'instructions'],
    ['item not an object', { model: 'm', input: ['x'] }, 'input[0]'],
    ['message without role', { model: 'm', input: [{ type: 'message', content: 'x' }] }, 'input[0]'],
    ['only a message with a role no format knows', { model: 'm', input: [{ role: 'tool', content: 'x' }] }, 'input'],
    ['bad content', { model: 'm', input: [{ role: 'user', content: 5 }] }, 'input[0].content'],
    ['content part without a type', { model: 'm', input: [{ role: 'user', content: [{ text: 'x' }] }] }, 'input[0].content[0]'],
    ['image without url or file', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image' }] }] }, 'input[0].content[0]'],
    ['function_call without name', { model: 'm', input: [{ type: 'function_call', call_id: 'c' }] }, 'input[0]'],
    ['function_call with object arguments', { model: 'm', input: [{ role: 'user', content: 'x' }, { type: 'function_call', call_id: 'c', name: 'f', arguments: {} }] }, 'input[1]'],
    ['function_call_output without call_id', { model: 'm', input: [{ type: 'function_call_output', output: 'x' }] }, 'input[0]'],
    ['function_call_output with a number', { model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: 1 }] }, 'input[0].output'],
    ['temperature above 2', { model: 'm', input: 'x', temperature: 2.5 }, 'temperature'],
    ['temperature below 0', { model: 'm', input: 'x', temperature: -0.1 }, 'temperature'],
    ['temperature a string', { model: 'm', input: 'x', temperature: '1' }, 'temperature'],
    ['top_p above 1', { model: 'm', input: 'x', top_p: 1.5 }, 'top_p'],
    ['max_output_tokens not an integer', { model: 'm', input: 'x', max_output_tokens: 1.5 }, 'max_output_tokens'],
    ['stream a string', { model: 'm', input: 'x', stream: 'yes' }, 'stream'],
    ['tools not an array', { model: 'm', input: 'x', tools: {} }, 'tools'],
    ['tool without type', { model: 'm', input: 'x', tools: [{ name: 'f' }] }, 'tools[0]'],
    ['function tool without name', { model: 'm', input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name'],
    ['function tool with bad parameters', { model: 'm', input: 'x', tools: [{ type: 'function', name: 'f', parameters: [] }] }, 'tools[0].parameters'],
    ['bad tool_choice', { model: 'm', input: 'x', tool_choice: 'sometimes' }, 'tool_choice'],
    ['bad effort', { model: 'm', input: 'x', reasoning: { effort: 'ultra' } }, 'reasoning.effort'],
    ['bad effort: prototype key', { model: 'm', input: 'x', reasoning: { effort: 'constructor' } }, 'reasoning.effort'],
    ['bad text.format', { model: 'm', input: 'x', text: { format: { type: 'yaml' } } }, 'text.format'],
    ['json_schema without schema', { model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'n' } } }, 'text.format.schema'],
  ])('%s -> 400 naming %s', (_name, body, param) => {
    let error: unknown
    try {
      decodeRequest(body)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RequestValidationError)
    expect((error as RequestValidationError).param).toBe(param)
  })
})

describe('request decode: a document in a function_call_output', () => {
  it('is named (tool results hold text and images only); the text stays', () => {
    const request = decode({ input: [
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'see' }, { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' }] },
    ] })
    expect(request.messages.at(-1)!.parts).toEqual([{ type: 'tool_result', callId: 'c', name: 'f', content: [{ type: 'text', text: 'see' }] }])
    expect(request.unmapped).toEqual(['function_call_output.input_file'])
  })
})

describe('request decode: include', () => {
  // What a translated answer has anyway is no loss: Codex asks for reasoning.encrypted_content on every turn.
  it.each([
    [['reasoning.encrypted_content'], undefined],
    [['reasoning.encrypted_content', 'web_search_call.action.sources'], undefined],
    [['message.output_text.logprobs', 'reasoning.encrypted_content'], ['include:message.output_text.logprobs']],
  ])('%j', (include, unmapped) => {
    // stream_options (include_obfuscation) asks nothing a translated stream has.
    const request = decode({ input: 'hi', include, stream_options: { include_obfuscation: false } })
    expect(request.unmapped).toEqual(unmapped)
    expect(request.extensions?.responses?.include).toEqual(include)
  })
})

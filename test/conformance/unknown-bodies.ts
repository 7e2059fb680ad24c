import type { Fixture } from './unknown-inserts.ts'

/**
 * Bodies that use what the recorded clients' bodies do not (images, documents, signed thinking, tool
 * results with images, structured output, named tool choices, efforts, web search), one per format, so
 * the unknown-field test inserts next to those too.
 */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64')
const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }

export const richBodies: Fixture[] = [
  {
    name: 'rich chat', format: 'chat', body: {
      model: 'm', max_completion_tokens: 500, reasoning_effort: 'high', temperature: 0.3,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      tools: [{ type: 'function', function: { name: 'weather', description: 'd', parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      messages: [
        { role: 'developer', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }, { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'a.pdf' } }] },
        { role: 'assistant', content: null, reasoning_content: 'thinking', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    },
  },
  {
    name: 'rich responses', format: 'responses', body: {
      model: 'm', instructions: 'be brief', max_output_tokens: 500, reasoning: { effort: 'high', summary: 'auto' },
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true }, verbosity: 'low' },
      tools: [{ type: 'function', name: 'weather', parameters: schema, strict: false }, { type: 'web_search', search_context_size: 'low' }],
      tool_choice: { type: 'function', name: 'weather' },
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image_url: `data:image/png;base64,${png}` }, { type: 'input_file', file_data: `data:application/pdf;base64,${pdf}`, filename: 'a.pdf' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'enc' },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'sunny' }, { type: 'input_image', image_url: `data:image/png;base64,${png}` }] },
      ],
    },
  },
  {
    name: 'rich messages', format: 'messages', body: {
      model: 'm', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 }, output_config: { effort: 'high', format: { type: 'json_schema', schema } },
      system: [{ type: 'text', text: 'be brief' }],
      tools: [{ name: 'weather', description: 'd', input_schema: schema }, { type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
      tool_choice: { type: 'auto' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, title: 'a.pdf' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'thinking', signature: 'sig' }, { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'sunny' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }], is_error: false }] },
      ],
    },
  },
  {
    name: 'rich generate', format: 'generate', body: {
      model: 'm', systemInstruction: { parts: [{ text: 'be brief' }] },
      generationConfig: { maxOutputTokens: 500, responseMimeType: 'application/json', responseJsonSchema: schema, thinkingConfig: { thinkingLevel: 'HIGH', includeThoughts: true } },
      tools: [{ functionDeclarations: [{ name: 'weather', description: 'd', parametersJsonSchema: schema }] }, { googleSearch: {} }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
      contents: [
        { role: 'user', parts: [{ text: 'see' }, { inlineData: { mimeType: 'image/png', data: png } }, { inlineData: { mimeType: 'application/pdf', data: pdf } }] },
        { role: 'model', parts: [{ text: 'thinking', thought: true }, { functionCall: { id: 'c1', name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'weather', response: { output: 'sunny' }, parts: [{ inlineData: { mimeType: 'image/png', data: png } }] } }] },
      ],
    },
  },
]

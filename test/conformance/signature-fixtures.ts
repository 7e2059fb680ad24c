import type { BuiltinWireFormat } from '../../core/canonical/codec.ts'

/**
 * Turn 1 of a tool conversation with thinking on, in each vendor's real shapes (non-stream body and SSE
 * event sequence), and what a client of each format does with the answer: assemble it (as its SDK does)
 * and replay it in turn 2 with the tool results.
 */
export interface Call { id: string; name: string; args: Record<string, unknown> }
export interface Answer { thinking: string; signature?: string; calls: Call[] }

const sse = (events: Array<[string | undefined, unknown]>) => events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`).join('')

/** The upstream's answer: `json` for non-stream, `stream` for SSE. A chat vendor signs nothing. */
export function upstreamAnswer(format: BuiltinWireFormat, answer: Answer): { json: Record<string, unknown>; stream: string } {
  const { thinking, signature, calls } = answer
  switch (format) {
    case 'messages': {
      const content = [{ type: 'thinking', thinking, signature }, ...calls.map(call => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args }))]
      const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', stop_sequence: null }
      const events: Array<[string, unknown]> = [['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }],
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }]]
      calls.forEach((call, i) => {
        const json = JSON.stringify(call.args)
        events.push(['content_block_start', { type: 'content_block_start', index: i + 1, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }])
        // A call without arguments streams one empty partial_json, as the API does.
        for (const piece of json === '{}' ? [''] : [json.slice(0, 5), json.slice(5)]) events.push(['content_block_delta', { type: 'content_block_delta', index: i + 1, delta: { type: 'input_json_delta', partial_json: piece } }])
        events.push(['content_block_stop', { type: 'content_block_stop', index: i + 1 }])
      })
      events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }], ['message_stop', { type: 'message_stop' }])
      return { json: { ...message, content, stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 30 } }, stream: sse(events) }
    }
    case 'generate': {
      // Gemini 3: the signature rides on the first functionCall of the step; thought text is a summary.
      const parts = calls.map((call, i) => ({ functionCall: { name: call.name, args: call.args }, ...(i === 0 && signature && { thoughtSignature: signature }) }))
      const head = { modelVersion: 'gemini-3-pro', responseId: 'r1' }
      const usage = { promptTokenCount: 10, candidatesTokenCount: 20, thoughtsTokenCount: 5, totalTokenCount: 35 }
      return {
        json: { ...head, candidates: [{ content: { role: 'model', parts: [{ text: thinking, thought: true }, ...parts] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage },
        stream: sse([[undefined, { ...head, candidates: [{ content: { role: 'model', parts: [{ text: thinking, thought: true }] }, index: 0 }] }],
          [undefined, { ...head, candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usage }]]),
      }
    }
    case 'responses': {
      const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: thinking }], encrypted_content: signature }
      const fcs = calls.map((call, i) => ({ id: `fc_${i}`, type: 'function_call', status: 'completed', call_id: call.id, name: call.name, arguments: JSON.stringify(call.args) }))
      const response = { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-x', output: [reasoning, ...fcs], usage: { input_tokens: 10, output_tokens: 30, total_tokens: 40 } }
      let seq = 0
      const ev = (type: string, data: Record<string, unknown>): [string, unknown] => [type, { type, sequence_number: seq++, ...data }]
      const events = [ev('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
        ev('response.output_item.added', { output_index: 0, item: { ...reasoning, summary: [], encrypted_content: undefined } }),
        ev('response.reasoning_summary_part.added', { item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } }),
        ev('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: thinking }),
        ev('response.reasoning_summary_text.done', { item_id: 'rs_1', output_index: 0, summary_index: 0, text: thinking }),
        ev('response.output_item.done', { output_index: 0, item: reasoning })]
      fcs.forEach((fc, i) => events.push(ev('response.output_item.added', { output_index: i + 1, item: { ...fc, arguments: '', status: 'in_progress' } }),
        ev('response.function_call_arguments.delta', { item_id: fc.id, output_index: i + 1, delta: fc.arguments }),
        ev('response.function_call_arguments.done', { item_id: fc.id, output_index: i + 1, arguments: fc.arguments }),
        ev('response.output_item.done', { output_index: i + 1, item: fc })))
      events.push(ev('response.completed', { response }))
      return { json: response, stream: sse(events) }
    }
    case 'chat': {
      const toolCalls = calls.map((call, i) => ({ index: i, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }))
      const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-x' }
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) => [undefined, { ...head, choices: [{ index: 0, delta, finish_reason: finish }] }] as [undefined, unknown]
      // Parallel calls interleave their argument deltas, as some compatible vendors stream them.
      const interleaved = toolCalls.flatMap(call => [chunk({ tool_calls: [{ ...call, function: { ...call.function, arguments: '' } }] })])
      const halves = toolCalls.flatMap(call => [call.function.arguments.slice(0, 4)].map(piece => chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] })))
      const rest = toolCalls.map(call => chunk({ tool_calls: [{ index: call.index, function: { arguments: call.function.arguments.slice(4) } }] }))
      return {
        json: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'deepseek-x', choices: [{ index: 0, message: { role: 'assistant', content: null, reasoning_content: thinking, tool_calls: toolCalls.map(({ index: _, ...call }) => call) }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 30, total_tokens: 40 } },
        stream: sse([chunk({ role: 'assistant', content: null, reasoning_content: thinking }), ...interleaved, ...halves, ...rest, chunk({}, 'tool_calls')]) + 'data: [DONE]\n\n',
      }
    }
  }
}

const events = (text: string) => text.split('\n\n').flatMap(frame => frame.split('\n').filter(line => line.startsWith('data: ')).map(line => line.slice(6))).filter(data => data !== '[DONE]').map(data => JSON.parse(data))

/** The answer as the client's SDK holds it after a stream (the same shape as a non-stream body). */
export function assembleClientStream(format: BuiltinWireFormat, text: string): Record<string, any> {
  const data = events(text)
  switch (format) {
    case 'messages': {
      const content: Array<Record<string, any>> = []
      let json = ''
      for (const event of data) {
        if (event.type === 'content_block_start') { content[event.index] = { ...event.content_block }; json = '' }
        const block = content[event.index]
        if (event.type === 'content_block_delta') {
          if (event.delta.type === 'thinking_delta') block!.thinking += event.delta.thinking
          if (event.delta.type === 'signature_delta') block!.signature = event.delta.signature
          if (event.delta.type === 'text_delta') block!.text += event.delta.text
          if (event.delta.type === 'input_json_delta') json += event.delta.partial_json
        }
        if (event.type === 'content_block_stop' && block?.type === 'tool_use') block.input = JSON.parse(json || '{}')
      }
      return { role: 'assistant', content }
    }
    case 'chat': {
      const message: Record<string, any> = { role: 'assistant', content: null }
      const calls: Array<Record<string, any>> = []
      for (const chunk of data) {
        const delta = chunk.choices?.[0]?.delta ?? {}
        if (delta.content) message.content = (message.content ?? '') + delta.content
        if (delta.reasoning_content) message.reasoning_content = (message.reasoning_content ?? '') + delta.reasoning_content
        for (const call of delta.tool_calls ?? []) {
          const slot = calls[call.index] ??= { id: call.id, type: 'function', function: { name: call.function?.name ?? '', arguments: '' } }
          slot.function.arguments += call.function?.arguments ?? ''
        }
      }
      if (calls.length) message.tool_calls = calls
      return { choices: [{ message }] }
    }
    case 'responses': return data.find(event => event.type === 'response.completed').response
    case 'generate': return { candidates: [{ content: { role: 'model', parts: data.flatMap(chunk => chunk.candidates?.[0]?.content?.parts ?? []) } }] }
  }
}

const question = 'Weather in Paris and Oslo?'

/** Turn 2 in the client's own shape: the answer replayed as received, then the tool results; thinking on. */
export function clientReplay(format: BuiltinWireFormat, answer: Record<string, any>, result = 'sunny'): Record<string, unknown> {
  switch (format) {
    case 'messages': {
      const uses = answer.content.filter((block: any) => block.type === 'tool_use')
      return { model: 'm', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: question }, { role: 'assistant', content: answer.content }, { role: 'user', content: uses.map((use: any) => ({ type: 'tool_result', tool_use_id: use.id, content: result })) }] }
    }
    case 'chat': {
      const message = answer.choices[0].message
      return { model: 'm', reasoning_effort: 'medium', tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        messages: [{ role: 'user', content: question }, message, ...message.tool_calls.map((call: any) => ({ role: 'tool', tool_call_id: call.id, content: result }))] }
    }
    case 'responses': {
      const calls = answer.output.filter((item: any) => item.type === 'function_call')
      return { model: 'm', reasoning: { effort: 'medium', summary: 'auto' }, include: ['reasoning.encrypted_content'], store: false, tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
        input: [{ role: 'user', content: question }, ...answer.output, ...calls.map((call: any) => ({ type: 'function_call_output', call_id: call.call_id, output: result }))] }
    }
    case 'generate': {
      const content = answer.candidates[0].content
      const calls = content.parts.filter((part: any) => part.functionCall)
      return { model: 'm', tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' } }] }], generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
        contents: [{ role: 'user', parts: [{ text: question }] }, content, { role: 'user', parts: calls.map((part: any) => ({ functionResponse: { name: part.functionCall.name, ...(part.functionCall.id && { id: part.functionCall.id }), response: { result } } })) }] }
    }
  }
}

import { describe, expect, it } from 'vitest'
import { RequestValidationError } from 'model-proxy'
import { decodeGenerateRequest } from './request-decode.ts'

const body = (tools: unknown) => ({ model: 'm', contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools })

describe('decodeGenerateRequest: function declarations', () => {
  it.each([null, 'f', 42, [{ name: 'f' }]])('a declaration that is no object (%j) is the client\'s 400, not a TypeError (a 500)', (declaration) => {
    const decode = () => decodeGenerateRequest(body([{ functionDeclarations: [{ name: 'ok' }, declaration] }]))
    expect(decode).toThrow(RequestValidationError)
    expect(decode).toThrow('tools[0].functionDeclarations[1] must be an object')
  })

  it.each([{}, { name: '' }, { name: 7 }, { name: null, description: 'd' }])('a declaration without a name (%j) is the client\'s 400, as the API gives (it went upstream as "undefined")', (declaration) => {
    const decode = () => decodeGenerateRequest(body([{ functionDeclarations: [declaration] }]))
    expect(decode).toThrow(RequestValidationError)
    expect(decode).toThrow('tools[0].functionDeclarations[0].name: name cannot be empty')
  })

  it('object declarations still decode, in either spelling', () => {
    const request = decodeGenerateRequest(body([{ functionDeclarations: [{ name: 'a', description: 'd' }] }, { function_declarations: [{ name: 'b' }] }]))
    expect(request.tools).toEqual([{ name: 'a', description: 'd' }, { name: 'b' }])
  })
})

describe('decodeGenerateRequest: thinkingConfig.thinkingLevel', () => {
  const config = (thinkingConfig: unknown) => ({ model: 'm', contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { thinkingConfig } })
  // The ThinkingLevel enum of @google/genai: MINIMAL, LOW, MEDIUM, HIGH, XHIGH, and the unset value.
  it.each([
    ['MINIMAL', { effort: 'minimal' }],
    ['LOW', { effort: 'low' }],
    ['high', { effort: 'high' }],
    ['XHIGH', { effort: 'xhigh' }],
    ['THINKING_LEVEL_UNSPECIFIED', {}],
  ])('%s', (level, reasoning) => {
    const request = decodeGenerateRequest(config({ thinkingLevel: level }))
    expect(request.reasoning).toEqual(reasoning)
    expect(request.unmapped).toBeUndefined()
  })

  it('a level of a later API version is no effort other formats would send on: it is named', () => {
    const request = decodeGenerateRequest(config({ thinkingLevel: 'ULTRA', includeThoughts: true }))
    expect(request.reasoning).toEqual({ includeThoughts: true })
    expect(request.unmapped).toEqual(['generationConfig.thinkingConfig.thinkingLevel'])
  })
})

describe('decodeGenerateRequest: tools and toolConfig leave nothing behind unnamed', () => {
  it('search, declarations and code execution in one tool object; several allowed functions; retrievalConfig', () => {
    const request = decodeGenerateRequest({
      ...body([{ googleSearch: { excludeDomains: ['a.test'] }, functionDeclarations: [{ name: 'f' }, { name: 'g' }], codeExecution: {} }]),
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f', 'g'] }, retrievalConfig: { languageCode: 'fr' } },
    })
    expect(request.tools).toEqual([{ name: 'f' }, { name: 'g' }])
    expect(request.webSearch).toEqual({ blockedDomains: ['a.test'] })
    expect(request.toolChoice).toBe('required')
    expect(request.unmapped).toEqual(expect.arrayContaining(['tool:codeExecution', 'toolConfig.retrievalConfig', 'toolConfig.functionCallingConfig.allowedFunctionNames']))
    expect(request.extensions?.generate?.tools).toEqual([{ codeExecution: {} }])
  })
})

describe('decodeGenerateRequest: responseMimeType', () => {
  const config = (generationConfig: unknown) => ({ model: 'm', contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig })
  it.each<[string, object, object | undefined, string[] | undefined]>([
    ['JSON with a schema', { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } }, { type: 'json_schema', schema: { type: 'object' } }, undefined],
    ['JSON mode', { responseMimeType: 'application/json' }, { type: 'json_object' }, undefined],
    ['plain text asks nothing', { responseMimeType: 'text/plain' }, undefined, undefined],
    ['an enum answer has no other form: named', { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a', 'b'] } }, undefined, ['generationConfig.responseMimeType']],
  ])('%s', (_name, generationConfig, format, unmapped) => {
    const request = decodeGenerateRequest(config(generationConfig))
    expect(request.responseFormat).toEqual(format)
    expect(request.unmapped).toEqual(unmapped)
  })
})

// A newer API's keys and values inside contents, calls, declarations and configs: other formats have no
// place for them, so they are named, never lost unseen.
describe('decodeGenerateRequest: unknown keys and values inside are named', () => {
  const base = { model: 'm', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
  const declared = (declaration: Record<string, unknown>) => ({ ...base, tools: [{ functionDeclarations: [{ name: 'f', ...declaration }] }] })
  it.each([
    ['a content key', { ...base, contents: [{ role: 'user', parts: [{ text: 'hi' }], id: 'c1' }] }, ['contents.id']],
    ['a functionCall key', { ...base, contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: {}, willContinue: true } }] }] }, ['functionCall.willContinue']],
    ['a functionResponse key', { ...base, contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, scheduling: 'WHEN_IDLE' } }] }] }, ['functionResponse.scheduling']],
    ['a declaration key', declared({ behavior: 'NON_BLOCKING' }), ['functionDeclarations.behavior']],
    ['a calling mode', { ...declared({}), toolConfig: { functionCallingConfig: { mode: 'STRICT' } } }, ['toolConfig.functionCallingConfig.mode']],
    ['a calling key', { ...declared({}), toolConfig: { functionCallingConfig: { mode: 'AUTO', streamFunctionCallArguments: true } } }, ['toolConfig.functionCallingConfig.streamFunctionCallArguments']],
    ['a thinkingConfig key', { ...base, generationConfig: { thinkingConfig: { thinkingBudget: 100, thinkingSummary: true } } }, ['generationConfig.thinkingConfig.thinkingSummary']],
    ['a thought part key', { ...base, contents: [{ role: 'model', parts: [{ text: 'hm', thought: true, partMetadata: { a: 1 } }] }] }, ['part:partMetadata']],
    ['an inlineData key', { ...base, contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==', displayName: 'a.png' } }] }] }, ['inlineData.displayName']],
    ['a function response part key', { ...base, contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' }, ttl: 3 }] } }] }] }, ['functionResponse.parts.ttl']],
    ['a system part that is no text', { ...base, systemInstruction: { parts: [{ text: 'be brief' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, ['systemInstruction.parts.inlineData']],
  ])('%s', (_name, body, dropped) => {
    expect(decodeGenerateRequest(body).unmapped).toEqual(dropped)
  })

  it('known keys and values: nothing named', () => {
    const body = {
      ...declared({ parametersJsonSchema: { type: 'object' }, description: 'd' }), systemInstruction: { role: 'system', parts: [{ text: 's' }] },
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } }, generationConfig: { thinkingConfig: { thinkingBudget: 10, includeThoughts: true } },
      contents: [{ role: 'model', parts: [{ functionCall: { id: 'a', name: 'f', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { id: 'a', name: 'f', response: { output: 'x' } } }] }],
    }
    expect(decodeGenerateRequest(body).unmapped).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { decodeToolConfig, decodeTools } from './tools-decode.ts'

const declaration = { name: 'f', description: 'd' }

// The Tool and ToolConfig of @google/genai: a Tool object may hold several kinds (functionDeclarations,
// googleSearch with its options, codeExecution, urlContext...); ToolConfig has functionCallingConfig
// (mode, allowedFunctionNames) and retrievalConfig.
describe('decodeTools', () => {
  it.each<[string, unknown[], object, string[]]>([
    ['declarations', [{ functionDeclarations: [declaration] }], { tools: [declaration], other: [] }, []],
    ['search alone', [{ googleSearch: {} }], { tools: [], webSearch: {}, other: [] }, []],
    ['search and declarations in one object', [{ googleSearch: {}, functionDeclarations: [declaration] }], { tools: [declaration], webSearch: {}, other: [] }, []],
    ['declarations with another tool in one object: the other is kept and named', [{ functionDeclarations: [declaration], codeExecution: {} }], { tools: [declaration], other: [{ codeExecution: {} }] }, ['tool:codeExecution']],
    ['excluded domains are a block list', [{ googleSearch: { excludeDomains: ['a.test'] } }], { tools: [], webSearch: { blockedDomains: ['a.test'] }, other: [] }, []],
    ['a time range has no other form', [{ googleSearch: { timeRangeFilter: { startTime: 'a', endTime: 'b' } } }], { tools: [], webSearch: {}, other: [] }, ['tool:googleSearch.timeRangeFilter']],
    ['the vendor\'s own tools', [{ urlContext: {} }], { tools: [], other: [{ urlContext: {} }] }, ['tool:urlContext']],
  ])('%s', (_name, tools, decoded, named) => {
    const unmapped = new Set<string>()
    expect(decodeTools(tools, unmapped)).toEqual(decoded)
    expect([...unmapped]).toEqual(named)
  })
})

describe('decodeToolConfig', () => {
  it.each<[string, object, unknown, string[]]>([
    ['any', { functionCallingConfig: { mode: 'ANY' } }, 'required', []],
    ['one allowed function is a forced call', { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } }, { name: 'f' }, []],
    ['several allowed functions: required, the list named', { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f', 'g'] } }, 'required', ['toolConfig.functionCallingConfig.allowedFunctionNames']],
    ['none', { function_calling_config: { mode: 'NONE' } }, 'none', []],
    ['validated is auto', { functionCallingConfig: { mode: 'VALIDATED' } }, 'auto', []],
    ['retrievalConfig is named', { functionCallingConfig: { mode: 'AUTO' }, retrievalConfig: { latLng: { latitude: 1, longitude: 2 } } }, 'auto', ['toolConfig.retrievalConfig']],
  ])('%s', (_name, config, choice, named) => {
    const unmapped = new Set<string>()
    expect(decodeToolConfig(config, unmapped)).toEqual(choice)
    expect([...unmapped]).toEqual(named)
  })
})

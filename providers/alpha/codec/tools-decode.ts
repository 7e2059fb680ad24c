import { type ToolChoice, type ToolDef, type WebSearch, RequestValidationError } from 'model-proxy'
import { schemaFromGemini } from './schema.ts'

type Raw = Record<string, any>
const obj = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? value as Raw : undefined
/** The REST API accepts snake_case too: read either spelling. */
const pick = (raw: Raw | undefined, camel: string, snake: string) => raw?.[camel] ?? raw?.[snake]
const declarationKeys = new Set(['name', 'description', 'parameters', 'parametersJsonSchema', 'parameters_json_schema'])
const callingKeys = new Set(['mode', 'allowedFunctionNames', 'allowed_function_names'])
const modes = new Set(['', 'MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'])
const mappedKeys = new Set(['functionDeclarations', 'function_declarations', 'googleSearch', 'google_search'])

export interface DecodedTools {
  tools: ToolDef[]
  webSearch?: WebSearch
  /** The vendor's other tools (codeExecution, urlContext, googleMaps...), kept for a generateContent upstream. */
  other: Raw[]
}

/** `googleSearch` options: `excludeDomains` is a block list; the others (a time range, search types) have no other form. */
function webSearchFrom(search: Raw, unmapped: Set<string>): WebSearch {
  const webSearch: WebSearch = {}
  for (const key of Object.keys(search)) {
    const value = search[key]
    if (key === 'excludeDomains' && Array.isArray(value) && value.every(domain => typeof domain === 'string')) webSearch.blockedDomains = value
    else unmapped.add(`tool:googleSearch.${key}`)
  }
  return webSearch
}

/**
 * `tools[]` -> canonical function tools, the web search (`googleSearch`) and the vendor's other tools.
 * One tool object may hold several kinds at once: each is read, none left behind unnamed.
 */
export function decodeTools(list: unknown, unmapped: Set<string>): DecodedTools {
  const out: DecodedTools = { tools: [], other: [] }
  for (const [i, tool] of (Array.isArray(list) ? list : []).entries()) {
    const declarations = pick(tool, 'functionDeclarations', 'function_declarations')
    const search = obj(pick(tool, 'googleSearch', 'google_search'))
    if (search) out.webSearch = webSearchFrom(search, unmapped)
    for (const [j, d] of (Array.isArray(declarations) ? declarations : []).entries()) {
      // The API refuses a declaration that is no object (null, a string) with its 400 as well.
      if (!obj(d)) throw new RequestValidationError(`tools[${i}].functionDeclarations[${j}] must be an object`, `tools[${i}].functionDeclarations[${j}]`)
      // A declaration needs its name (the API's 400 too): otherwise it went upstream as "undefined".
      if (typeof d.name !== 'string' || !d.name) throw new RequestValidationError(`tools[${i}].functionDeclarations[${j}].name: name cannot be empty`, `tools[${i}].functionDeclarations[${j}].name`)
      const parameters = obj(pick(d, 'parametersJsonSchema', 'parameters_json_schema')) ?? (obj(d.parameters) && schemaFromGemini(d.parameters))
      // `behavior`, `response`, `responseJsonSchema`...: canonical tools have no place for them.
      for (const key of Object.keys(d)) if (!declarationKeys.has(key)) unmapped.add(`functionDeclarations.${key}`)
      out.tools.push({ name: d.name, ...(typeof d.description === 'string' && { description: d.description }), ...(parameters && { parameters }) })
    }
    const rest = obj(tool) ? Object.fromEntries(Object.entries(tool as Raw).filter(([key]) => !mappedKeys.has(key))) : undefined
    if (!search && !Array.isArray(declarations)) out.other.push(tool)
    else if (rest && Object.keys(rest).length) out.other.push(rest)
  }
  for (const tool of out.other) unmapped.add(`tool:${Object.keys(tool ?? {})[0] ?? 'empty'}`)
  return out
}

/**
 * `toolConfig.functionCallingConfig` -> the canonical tool choice. A list of allowed functions other than
 * one forced call, and the rest of `toolConfig` (`retrievalConfig`...), have no other form: named.
 */
export function decodeToolConfig(config: Raw | undefined, unmapped: Set<string>): ToolChoice | undefined {
  for (const key of Object.keys(config ?? {})) if (key !== 'functionCallingConfig' && key !== 'function_calling_config') unmapped.add(`toolConfig.${key}`)
  const calling = obj(pick(config, 'functionCallingConfig', 'function_calling_config'))
  const mode = String(calling?.mode ?? '').toUpperCase()
  // A mode of a later API version, or a key beside the mode, has no canonical choice: named.
  if (!modes.has(mode)) unmapped.add('toolConfig.functionCallingConfig.mode')
  for (const key of Object.keys(calling ?? {})) if (!callingKeys.has(key)) unmapped.add(`toolConfig.functionCallingConfig.${key}`)
  const allowed = pick(calling, 'allowedFunctionNames', 'allowed_function_names')
  const forced = mode === 'ANY' && Array.isArray(allowed) && allowed.length === 1
  if (Array.isArray(allowed) && allowed.length && !forced && mode !== 'NONE') unmapped.add('toolConfig.functionCallingConfig.allowedFunctionNames')
  if (mode === 'NONE') return 'none'
  if (mode === 'ANY') return forced ? { name: allowed[0] } : 'required'
  if (mode === 'AUTO' || mode === 'VALIDATED') return 'auto'
  return undefined
}

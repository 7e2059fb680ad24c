import { type ToolDef, RequestValidationError } from 'model-proxy'
import { absent, isObject, str, type Json } from './guards.ts'

/**
 * One `{type:'function'}` tool -> its canonical definition and the wire shell kept for the same format
 * (the tool without description/parameters: what ToolDef lacks, such as `strict`, stays there).
 */
export function decodeFunction(tool: Json, param: string): { def: ToolDef; shell: Json } {
  const { description, parameters, ...shell } = tool
  const name = str(tool.name)
  if (!name) throw new RequestValidationError(`${param}.name must be a non-empty string`, `${param}.name`)
  if (!absent(parameters) && !isObject(parameters)) throw new RequestValidationError(`${param}.parameters must be an object`, `${param}.parameters`)
  if (!absent(description) && typeof description !== 'string') throw new RequestValidationError(`${param}.description must be a string`, `${param}.description`)
  const def: ToolDef = { name }
  if (typeof description === 'string') def.description = description
  if (isObject(parameters)) def.parameters = parameters
  if (typeof tool.strict === 'boolean') def.strict = tool.strict
  return { def, shell }
}

/** A canonical definition -> a function tool of the format, named `name`, over its kept shell if any. */
export function functionTool(def: ToolDef, shell?: Json, name = def.name): Json {
  const tool: Json = { type: 'function', name }
  if (def.description !== undefined) tool.description = def.description
  tool.parameters = def.parameters ?? { type: 'object', properties: {} }
  // Without a shell the tool came from another format, whose schemas are rarely valid under this
  // format's strict mode (its default): ask for plain validation.
  return shell ? { ...shell, ...tool } : { ...tool, strict: def.strict ?? false }
}

const functionKeys = new Set(['type', 'name', 'strict'])

/** What only this format's function tools have (a newer key), named for other formats; `strict` is canonical. */
export function functionLosses(shell: Json): string[] {
  return Object.keys(shell).filter(key => !functionKeys.has(key)).map(key => `tools.${key}`)
}

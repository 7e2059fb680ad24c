import { type ToolChoice, type ToolDef, RequestValidationError } from 'model-proxy'
import { absent, isObject, str, type Json } from './guards.ts'

/**
 * `tools` -> canonical function tools, plus the wire list kept in extensions: built-in tools verbatim and
 * function tools as shells without description/parameters. The shells keep what ToolDef lacks (`strict`,
 * the list order) so a same-format round trip gives back the same list.
 */
export function decodeTools(value: unknown): { tools?: ToolDef[]; wire?: Json[] } {
  if (absent(value)) return {}
  if (!Array.isArray(value)) throw new RequestValidationError('tools must be an array', 'tools')
  const tools: ToolDef[] = []
  const wire = value.map((tool, i): Json => {
    const param = `tools[${i}]`
    if (!isObject(tool) || typeof tool.type !== 'string') throw new RequestValidationError(`${param} must be a tool object with a type`, param)
    if (tool.type !== 'function') return tool
    const { description, parameters, ...shell } = tool
    const name = str(tool.name)
    if (!name) throw new RequestValidationError(`${param}.name must be a non-empty string`, `${param}.name`)
    if (!absent(parameters) && !isObject(parameters)) throw new RequestValidationError(`${param}.parameters must be an object`, `${param}.parameters`)
    if (!absent(description) && typeof description !== 'string') throw new RequestValidationError(`${param}.description must be a string`, `${param}.description`)
    const def: ToolDef = { name }
    if (typeof description === 'string') def.description = description
    if (isObject(parameters)) def.parameters = parameters
    tools.push(def)
    return shell
  })
  return { tools, wire }
}

function functionTool(def: ToolDef, shell?: Json): Json {
  const tool: Json = { type: 'function', name: def.name }
  if (def.description !== undefined) tool.description = def.description
  tool.parameters = def.parameters ?? { type: 'object', properties: {} }
  // Without a shell the tool came from another format, whose schemas are rarely valid under this
  // format's strict mode (its default): ask for plain validation.
  return shell ? { ...shell, ...tool } : { ...tool, strict: false }
}

/** Canonical tools merged back into the kept wire list: order and built-in tools survive, edits win. */
export function encodeTools(defs: ToolDef[] = [], wire: unknown = []): Json[] {
  const pending = new Map(defs.map(def => [def.name, def]))
  const out: Json[] = []
  for (const entry of Array.isArray(wire) ? wire : []) {
    if (!isObject(entry)) continue
    if (entry.type !== 'function') { out.push(entry); continue }
    const def = pending.get(entry.name as string)
    if (!def) continue
    pending.delete(def.name)
    out.push(functionTool(def, entry))
  }
  for (const def of pending.values()) out.push(functionTool(def))
  return out
}

/** `tool_choice`: choices of built-in tools (`{type:'web_search'}`, `allowed_tools`...) go to extensions. */
export function decodeToolChoice(value: unknown): { choice?: ToolChoice; wire?: Json } {
  if (absent(value)) return {}
  if (value === 'none' || value === 'auto' || value === 'required') return { choice: value }
  if (isObject(value) && value.type === 'function' && typeof value.name === 'string') return { choice: { name: value.name } }
  if (isObject(value) && typeof value.type === 'string' && value.type !== 'function') return { wire: value }
  throw new RequestValidationError("tool_choice must be 'none', 'auto', 'required' or a tool object", 'tool_choice')
}

export function encodeToolChoice(choice: ToolChoice | undefined): unknown {
  if (choice === undefined || typeof choice === 'string') return choice
  return { type: 'function', name: choice.name }
}

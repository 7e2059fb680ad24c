import { type ResponseFormat, RequestValidationError } from 'model-proxy'
import { absent, isObject, str, type Json } from './guards.ts'

type Verbosity = 'low' | 'medium' | 'high'
const verbosities = new Set(['low', 'medium', 'high'])

/** `text: {format, verbosity}` -> canonical response format and verbosity; other `text` fields stay in `wire`. */
const formatKeys = new Set(['type', 'name', 'schema', 'strict'])
const typeKey = new Set(['type'])

export function decodeTextFormat(value: unknown): { format?: ResponseFormat; verbosity?: Verbosity; wire?: Json; dropped?: string[] } {
  if (absent(value)) return {}
  if (!isObject(value)) throw new RequestValidationError('text must be an object', 'text')
  const { format, verbosity: rawVerbosity, ...rest } = value
  const verbosity = typeof rawVerbosity === 'string' && verbosities.has(rawVerbosity) ? rawVerbosity as Verbosity : undefined
  if (!absent(rawVerbosity) && !verbosity) rest.verbosity = rawVerbosity
  const wire = Object.keys(rest).length ? rest : undefined
  if (absent(format)) return { wire, ...(verbosity && { verbosity }) }
  if (!isObject(format) || !(format.type === 'text' || format.type === 'json_object' || format.type === 'json_schema')) {
    throw new RequestValidationError("text.format.type must be 'text', 'json_object' or 'json_schema'", 'text.format')
  }
  const out: ResponseFormat = { type: format.type }
  if (format.type === 'json_schema') {
    if (!isObject(format.schema)) throw new RequestValidationError('text.format.schema must be an object', 'text.format.schema')
    out.schema = format.schema
    const name = str(format.name)
    if (name) out.name = name
    if (typeof format.strict === 'boolean') out.strict = format.strict
  }
  // `description` and newer keys: the canonical format has no place for them.
  const known = format.type === 'json_schema' ? formatKeys : typeKey
  const dropped = Object.keys(format).filter(key => !known.has(key)).map(key => `text.format.${key}`)
  return { format: out, wire, ...(verbosity && { verbosity }), ...(dropped.length && { dropped }) }
}

export function encodeTextFormat(format: ResponseFormat | undefined, wire: unknown, verbosity?: Verbosity): Json | undefined {
  const out: Json = isObject(wire) ? { ...wire } : {}
  if (verbosity) out.verbosity = verbosity
  if (format?.type === 'json_schema') {
    // The format requires a name; other formats may not have one.
    const schema: Json = { type: 'json_schema', name: format.name ?? 'response', schema: format.schema ?? {} }
    if (format.strict !== undefined) schema.strict = format.strict
    out.format = schema
  } else if (format) out.format = { type: format.type }
  return Object.keys(out).length ? out : undefined
}

type Schema = Record<string, unknown>

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value)
const mapValues = (value: unknown, fn: (schema: Schema) => Schema) =>
  isSchema(value) ? Object.fromEntries(Object.entries(value).map(([key, sub]) => [key, isSchema(sub) ? fn(sub) : sub])) : value
const mapList = (value: unknown, fn: (schema: Schema) => Schema) => Array.isArray(value) ? value.map(sub => isSchema(sub) ? fn(sub) : sub) : value

/** Sub-schemas by keyword: maps of schemas, lists of schemas, single schemas. */
function eachSub(schema: Schema, fn: (sub: Schema) => Schema): Schema {
  const out: Schema = { ...schema }
  for (const key of ['properties', '$defs', 'definitions']) if (key in out) out[key] = mapValues(out[key], fn)
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (key in out) out[key] = mapList(out[key], fn)
  for (const key of ['items', 'additionalProperties', 'not']) if (isSchema(out[key])) out[key] = fn(out[key] as Schema)
  if (Array.isArray(out.items)) out.items = mapList(out.items, fn)
  return out
}

/** Counts the OpenAPI form writes as int64 strings (`"minItems": "1"`). */
const countKeys = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']

/**
 * generateContent's own schema (`parameters`, `responseSchema`: an OpenAPI 3.0 subset with `type:
 * "OBJECT"`, `nullable`, `propertyOrdering`, counts as strings) -> plain JSON Schema other vendors take.
 */
export function schemaFromGemini(schema: Schema): Schema {
  const out = eachSub(schema, schemaFromGemini)
  if (typeof out.type === 'string') {
    const type = out.type.toLowerCase()
    if (type === 'type_unspecified') delete out.type
    else out.type = type
  }
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }]
  }
  delete out.nullable
  delete out.propertyOrdering
  if (out.format === 'enum') delete out.format
  if ('example' in out) {
    out.examples = [out.example]
    delete out.example
  }
  for (const key of countKeys) if (typeof out[key] === 'string' && /^\d+$/.test(out[key] as string)) out[key] = Number(out[key])
  return out
}

/** What `parametersJsonSchema` / `responseJsonSchema` accept (the vendor's documented subset). */
const geminiKeys = new Set([
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems',
  'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
])

/**
 * JSON Schema -> the subset generateContent documents: `const` becomes a one-value enum, enums keep
 * their string and number values, `definitions` is `$defs`, a one-entry `allOf` is merged in, a `$ref`
 * stands alone, and validation keywords outside the subset (`pattern`, `minLength`, `$schema`...) go:
 * they constrain values, the shape stays.
 */
export function schemaToGemini(schema: Schema): Schema {
  let source = schema
  if (Array.isArray(source.allOf) && source.allOf.length === 1 && isSchema(source.allOf[0])) {
    const { allOf: _allOf, ...rest } = source
    source = { ...(source.allOf[0] as Schema), ...rest }
  }
  if (source.definitions !== undefined && source.$defs === undefined) {
    const { definitions, ...rest } = source
    source = { ...rest, $defs: definitions }
  }
  if ('const' in source && source.enum === undefined) source = { ...source, enum: [source.const] }
  const mapped = eachSub(source, schemaToGemini)
  if (typeof mapped.$ref === 'string') {
    return Object.fromEntries(Object.entries(mapped).filter(([key]) => key.startsWith('$')).map(([key, value]) => [key, key === '$ref' ? (value as string).replace('#/definitions/', '#/$defs/') : value]))
  }
  const out: Schema = {}
  for (const [key, value] of Object.entries(mapped)) if (geminiKeys.has(key)) out[key] = value
  if (Array.isArray(out.enum)) {
    const values = out.enum.filter(value => typeof value === 'string' || typeof value === 'number')
    if (values.length) out.enum = values
    else delete out.enum
  }
  return out
}

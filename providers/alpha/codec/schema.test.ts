import { describe, expect, it } from 'vitest'
import { schemaFromGemini, schemaToGemini } from './schema.ts'

describe('schemaFromGemini: the vendor\'s OpenAPI subset -> JSON Schema', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['upper-case types, nested', { type: 'OBJECT', properties: { city: { type: 'STRING' }, days: { type: 'ARRAY', items: { type: 'INTEGER' } } }, required: ['city'] },
      { type: 'object', properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer' } } }, required: ['city'] }],
    ['nullable becomes a null type', { type: 'STRING', nullable: true }, { type: ['string', 'null'] }],
    ['nullable anyOf gains a null branch', { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true }, { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] }],
    ['propertyOrdering and format enum go, counts become numbers', { type: 'OBJECT', propertyOrdering: ['a'], properties: { a: { type: 'STRING', format: 'enum', enum: ['x'] }, l: { type: 'ARRAY', minItems: '1', maxItems: '3' } } },
      { type: 'object', properties: { a: { type: 'string', enum: ['x'] }, l: { type: 'array', minItems: 1, maxItems: 3 } } }],
    ['example becomes examples', { type: 'STRING', example: 'Paris' }, { type: 'string', examples: ['Paris'] }],
    ['plain JSON Schema stays as it is', { type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { a: { type: 'string' } } }],
  ])('%s', (_name, input, expected) => {
    expect(schemaFromGemini(input)).toEqual(expected)
  })
})

describe('schemaToGemini: JSON Schema -> the documented responseJsonSchema / parametersJsonSchema subset', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['keywords outside the subset go, at every depth', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string', pattern: '^x', minLength: 1, default: 'x' } }, additionalProperties: false, required: ['a'] },
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false, required: ['a'] }],
    ['const is a one-value enum', { type: 'string', const: 'on' }, { type: 'string', enum: ['on'] }],
    ['enums keep strings and numbers', { enum: ['a', 1, true, null] }, { enum: ['a', 1] }],
    ['an enum with nothing left goes', { enum: [true, false] }, {}],
    ['definitions are $defs, refs follow', { definitions: { P: { type: 'object', properties: { n: { type: 'string' } } } }, type: 'object', properties: { p: { $ref: '#/definitions/P', description: 'x' } } },
      { $defs: { P: { type: 'object', properties: { n: { type: 'string' } } } }, type: 'object', properties: { p: { $ref: '#/$defs/P' } } }],
    ['a one-entry allOf is merged', { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }], description: 'd' }, { type: 'object', properties: { a: { type: 'string' } }, description: 'd' }],
    ['anyOf, items and prefixItems recurse', { anyOf: [{ type: 'array', items: { type: 'string', pattern: 'x' } }, { type: 'array', prefixItems: [{ type: 'number', multipleOf: 2 }] }] },
      { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'array', prefixItems: [{ type: 'number' }] }] }],
    ['property names are not keywords', { type: 'object', properties: { pattern: { type: 'string' }, default: { type: 'number' } } }, { type: 'object', properties: { pattern: { type: 'string' }, default: { type: 'number' } } }],
  ])('%s', (_name, input, expected) => {
    expect(schemaToGemini(input)).toEqual(expected)
  })
})

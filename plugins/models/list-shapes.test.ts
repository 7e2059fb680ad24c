import { describe, expect, it } from 'vitest'
import { listFormatFor, type ClientSigns } from './list-shapes.ts'

const none: ClientSigns = { userAgent: null, anthropicVersion: false, xApiKey: false, googKey: false }

describe('the model list shape follows the client', () => {
  it.each<[string, Partial<ClientSigns>, string]>([
    ['openai SDK (Bearer only)', {}, 'chat'],
    ['@anthropic-ai/sdk (x-api-key + anthropic-version)', { xApiKey: true, anthropicVersion: true }, 'messages'],
    ['a messages client with a bearer token (anthropic-version)', { anthropicVersion: true }, 'messages'],
    ['the beta CLI by its User-Agent', { userAgent: 'claude-cli/2.1.330 (external, cli)' }, 'messages'],
    ['@google/genai 3 (x-goog-api-key)', { googKey: true }, 'generate'],
    ['anthropic signs win over a stray goog key', { googKey: true, anthropicVersion: true }, 'messages'],
  ])('%s -> %s', (_name, signs, format) => {
    expect(listFormatFor({ ...none, ...signs })).toBe(format)
  })
})

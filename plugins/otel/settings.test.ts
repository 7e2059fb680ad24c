import { describe, expect, it } from 'vitest'
import { otelConfigSchema, traceSettingsOf } from './settings.ts'
import { finishReasonsOf, operationOf, serverAttributes } from './attributes.ts'

const otel = (value: object = {}) => otelConfigSchema.parse({ otel: value }).otel

describe('traceSettingsOf: where traces go', () => {
  const cases: Array<[string, object, Record<string, string>, string | undefined]> = [
    ['nothing configured: off', {}, {}, undefined],
    ['config base URL gets /v1/traces', { endpoint: 'http://c:4318' }, {}, 'http://c:4318/v1/traces'],
    ['config full traces URL kept', { endpoint: 'http://c:4318/v1/traces' }, {}, 'http://c:4318/v1/traces'],
    ['base env variable', {}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e:4318/' }, 'http://e:4318/v1/traces'],
    ['traces env variable wins over base, used as is', {}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/x' }, 'http://t/x'],
    ['config wins over env', { endpoint: 'http://c' }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e' }, 'http://c/v1/traces'],
    ['enable false: off whatever is set', { endpoint: 'http://c', enable: false }, {}, undefined],
    ['OTEL_SDK_DISABLED turns the env endpoint off', {}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e', OTEL_SDK_DISABLED: 'true' }, undefined],
    ['OTEL_TRACES_EXPORTER=none turns it off', {}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://e', OTEL_TRACES_EXPORTER: 'none' }, undefined],
  ]
  it.each(cases)('%s', (_, config, env, url) => {
    expect(traceSettingsOf(otel(config), env)?.url).toBe(url)
  })

  it('service name: config, then OTEL_SERVICE_NAME, then model-proxy', () => {
    expect(traceSettingsOf(otel({ endpoint: 'http://c', 'service-name': 'edge' }), { OTEL_SERVICE_NAME: 'env' })?.serviceName).toBe('edge')
    expect(traceSettingsOf(otel({ endpoint: 'http://c' }), { OTEL_SERVICE_NAME: 'env' })?.serviceName).toBe('env')
    expect(traceSettingsOf(otel({ endpoint: 'http://c' }), {})?.serviceName).toBe('model-proxy')
  })

  it('refuses a bad endpoint and sample', () => {
    expect(() => otel({ endpoint: 'not a url' })).toThrow(/must be a URL/)
    expect(() => otel({ endpoint: 'http://c', sample: 2 })).toThrow(/<= 1/)
  })
})

describe('GenAI attribute mapping', () => {
  it.each([
    ['chat', 'chat', 'chat'],
    ['chat', 'completions', 'text_completion'],
    ['messages', 'messages', 'chat'],
    ['responses', 'responses', 'chat'],
    ['generate', 'generateContent', 'generate_content'],
  ] as const)('operation of %s %s is %s', (format, endpoint, operation) => {
    expect(operationOf(format, endpoint)).toBe(operation)
  })

  it.each([
    ['chat', { choices: [{ finish_reason: 'stop' }, { finish_reason: 'length' }] }, ['stop', 'length']],
    ['messages', { stop_reason: 'tool_use' }, ['tool_use']],
    ['generate', { candidates: [{ finishReason: 'STOP' }] }, ['STOP']],
    ['responses', { status: 'completed' }, ['completed']],
    ['responses', { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, ['max_output_tokens']],
    ['chat', { choices: 'junk' }, []],
    ['messages', undefined, []],
  ] as const)('finish reasons of a %s answer', (format, answer, reasons) => {
    expect(finishReasonsOf(format, answer as never)).toEqual(reasons)
  })

  it('server address and port of an upstream URL', () => {
    expect(serverAttributes('https://api.example.com/v1/chat')).toEqual({ 'server.address': 'api.example.com', 'server.port': 443 })
    expect(serverAttributes('http://127.0.0.1:9000/x')).toEqual({ 'server.address': '127.0.0.1', 'server.port': 9000 })
    expect(serverAttributes('nonsense')).toEqual({})
  })
})

import type { CanonicalRequest } from 'model-proxy'
import { effortBudget } from 'model-proxy/kit/codec'
import { CallLedger, partsToGenerate } from './parts.ts'
import { schemaToGemini } from './schema.ts'

type Raw = Record<string, any>

/** Canonical -> generateContent body (no `model`: the caller puts it in the URL). */
export function encodeGenerateRequest(request: CanonicalRequest): Record<string, unknown> {
  const extra: Raw = { ...request.extensions?.generate }
  const ledger = new CallLedger()
  const contents: Raw[] = []
  const system: string[] = []
  for (const message of request.messages) {
    if (message.role === 'system') {
      system.push(...message.parts.map(part => part.type === 'text' ? part.text : '').filter(Boolean))
      continue
    }
    const role = message.role === 'assistant' ? 'model' : 'user'
    const parts = partsToGenerate(message.parts, ledger, 'upstream')
    if (!parts.length) continue
    const last = contents.at(-1)
    if (last?.role === role) last.parts.push(...parts)
    else contents.push({ role, parts })
  }
  const body: Raw = { contents }
  if (system.length) body.systemInstruction = { parts: [{ text: system.join('\n\n') }] }
  const config: Raw = { ...extra.generationConfig }
  delete extra.generationConfig
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens
  if (request.temperature !== undefined) config.temperature = request.temperature
  if (request.topP !== undefined) config.topP = request.topP
  if (request.topK !== undefined) config.topK = request.topK
  if (request.stop?.length) config.stopSequences = request.stop
  if (request.n !== undefined) config.candidateCount = request.n
  if (request.seed !== undefined) config.seed = request.seed
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty
  const format = request.responseFormat
  if (format && format.type !== 'text') {
    config.responseMimeType = 'application/json'
    if (format.schema) config.responseJsonSchema = schemaToGemini(format.schema)
  }
  const reasoning = request.reasoning
  if (reasoning) {
    const budget = reasoning.budgetTokens ?? (reasoning.effort ? effortBudget[reasoning.effort] : undefined)
    if (budget !== undefined) config.thinkingConfig = { thinkingBudget: budget, includeThoughts: reasoning.includeThoughts ?? budget !== 0 }
    else if (reasoning.includeThoughts !== undefined) config.thinkingConfig = { includeThoughts: reasoning.includeThoughts }
  }
  if (Object.keys(config).length) body.generationConfig = config
  const tools: Raw[] = []
  if (request.tools?.length) tools.push({ functionDeclarations: request.tools.map(tool => ({ name: tool.name, ...(tool.description !== undefined && { description: tool.description }), parametersJsonSchema: schemaToGemini(tool.parameters ?? { type: 'object', properties: {} }) })) })
  if (request.webSearch) tools.push({ googleSearch: {} })
  if (Array.isArray(extra.tools)) tools.push(...extra.tools)
  delete extra.tools
  if (tools.length) body.tools = tools
  const choice = request.toolChoice
  if (choice) {
    body.toolConfig = { functionCallingConfig: typeof choice === 'string'
      ? { mode: choice === 'none' ? 'NONE' : choice === 'required' ? 'ANY' : 'AUTO' }
      : { mode: 'ANY', allowedFunctionNames: [choice.name] } }
  }
  return { ...extra, ...body }
}

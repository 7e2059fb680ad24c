import { parseSseFrames, type ClientFormat } from '../helpers/client-formats.ts'

/** The usage a client read in its own format's fields, in canonical terms (input counts every prompt token). */
export interface Told { input: number; output: number; cached: number }

const num = (value: unknown) => typeof value === 'number' ? value : 0

const fromChat = (u: any): Told => ({ input: num(u.prompt_tokens), output: num(u.completion_tokens), cached: num(u.prompt_tokens_details?.cached_tokens) })
const fromResponses = (u: any): Told => ({ input: num(u.input_tokens), output: num(u.output_tokens), cached: num(u.input_tokens_details?.cached_tokens) })
const fromGenerate = (u: any): Told => ({
  input: num(u.promptTokenCount) + num(u.toolUsePromptTokenCount), output: num(u.candidatesTokenCount) + num(u.thoughtsTokenCount), cached: num(u.cachedContentTokenCount),
})
/** Messages: the prompt is its plain part plus cache reads and writes; message_delta's counts are the latest. */
const fromMessages = (u: any): Told => ({
  input: num(u.input_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens), output: num(u.output_tokens), cached: num(u.cache_read_input_tokens),
})

/** What the client was told, from its whole answer or its stream; undefined when it was told nothing. */
export function clientTold(format: ClientFormat, stream: boolean, text: string): Told | undefined {
  if (!stream) {
    const body = JSON.parse(text)
    if (format === 'chat' || format === 'completions') return body.usage ? fromChat(body.usage) : undefined
    if (format === 'responses') return body.usage ? fromResponses(body.usage) : undefined
    if (format === 'messages') return body.usage ? fromMessages(body.usage) : undefined
    return body.usageMetadata ? fromGenerate(body.usageMetadata) : undefined
  }
  const events: any[] = format === 'generate-array' ? JSON.parse(text) : parseSseFrames(text).filter(frame => frame.data !== '[DONE]').map(frame => JSON.parse(frame.data))
  if (format === 'chat' || format === 'completions') {
    const last = events.filter(event => event.usage).at(-1)
    return last && fromChat(last.usage)
  }
  if (format === 'responses') {
    const done = events.find(event => event.type === 'response.completed' || event.type === 'response.incomplete')
    return done?.response?.usage ? fromResponses(done.response.usage) : undefined
  }
  if (format === 'messages') {
    // message_delta's counts are cumulative: each field it carries replaces message_start's.
    const start = events.find(event => event.type === 'message_start')?.message?.usage
    const delta = events.filter(event => event.type === 'message_delta').at(-1)?.usage
    return start || delta ? fromMessages({ ...start, ...delta }) : undefined
  }
  const last = events.filter(event => event.usageMetadata).at(-1)
  return last && fromGenerate(last.usageMetadata)
}

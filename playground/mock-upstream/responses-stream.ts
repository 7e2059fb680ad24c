import { toDeltas } from './reply.ts'
import { halves, sseEvent } from './wire.ts'

export type OutputItem =
  | { type: 'reasoning'; id: string; summary: Array<{ type: 'summary_text'; text: string }>; encrypted_content: string }
  | { type: 'message'; id: string; status: string; role: 'assistant'; content: Array<{ type: 'output_text'; text: string; annotations: unknown[] }> }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: string }

/**
 * The Responses-API SSE frames for a finished response, in the vendor's order: created, in_progress,
 * then per output item added / (parts and deltas) / done, then completed. Every data has `type` and an
 * incrementing `sequence_number`.
 */
export function responseEvents(response: { output: OutputItem[] } & Record<string, unknown>): string[] {
  const frames: string[] = []
  let sequence = 0
  const emit = (type: string, data: Record<string, unknown>) => frames.push(sseEvent(type, { type, sequence_number: sequence++, ...data }))
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null }
  emit('response.created', { response: inProgress })
  emit('response.in_progress', { response: inProgress })

  response.output.forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex }
    if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } })
      item.summary.forEach((part, summaryIndex) => {
        emit('response.reasoning_summary_part.added', { ...at, summary_index: summaryIndex, part: { ...part, text: '' } })
        emit('response.reasoning_summary_text.delta', { ...at, summary_index: summaryIndex, delta: part.text })
        emit('response.reasoning_summary_text.done', { ...at, summary_index: summaryIndex, text: part.text })
        emit('response.reasoning_summary_part.done', { ...at, summary_index: summaryIndex, part })
      })
    } else if (item.type === 'message') {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } })
      item.content.forEach((part, contentIndex) => {
        const where = { ...at, content_index: contentIndex }
        emit('response.content_part.added', { ...where, part: { ...part, text: '' } })
        for (const delta of toDeltas(part.text)) emit('response.output_text.delta', { ...where, delta, logprobs: [] })
        emit('response.output_text.done', { ...where, text: part.text, logprobs: [] })
        emit('response.content_part.done', { ...where, part })
      })
    } else {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } })
      for (const delta of halves(item.arguments)) emit('response.function_call_arguments.delta', { ...at, delta })
      emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments })
    }
    emit('response.output_item.done', { output_index: outputIndex, item })
  })
  emit('response.completed', { response })
  return frames
}

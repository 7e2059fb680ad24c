import type { WireCodec } from '../canonical/codec.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import type { UpstreamHttpRequest } from '../upstream/send.ts'
import { requestField } from './request.ts'

/**
 * A same-format stream of a format whose usage is optional (chat: `stream_options.include_usage`) asks
 * the upstream for it when the client did not: accounting reads it, and the usage-only frame is taken
 * out before the client sees it (usage-tap.ts). The client's bytes stay bytes: the field is written
 * after them, nothing is parsed.
 */
export function askUpstreamForUsage(codec: WireCodec | undefined, request: ProxyRequest, http: UpstreamHttpRequest): void {
  const option = codec?.stream.usageOption
  if (!option || !request.stream || !http.json) return
  const sent = requestField(request, option.field)
  if (option.asked(sent)) return
  // An untouched body gets the field written after the client's bytes (core/json/json-body.ts).
  http.json.set(option.field, option.ask(sent))
}

/** Whether the client itself asked for the stream's usage (else the usage-only frame is not the client's). */
export function clientAskedForUsage(codec: WireCodec | undefined, request: ProxyRequest): boolean {
  const option = codec?.stream.usageOption
  return !option || option.asked(requestField(request, option.field))
}

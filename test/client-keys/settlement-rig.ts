import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'

export interface SettlementRig { upstream: UsageUpstream; receiver: OtlpReceiver; proxy: TestProxy }

/**
 * What every settlement test starts: the scripted usage upstream, an OTLP receiver, and a proxy that
 * records usage and every request, traces to the receiver and answers the management API with `secret`.
 * `entries` adds the families, prices and client keys, given the upstream's URL.
 */
export async function startSettlementRig(secret: string, entries: (upstreamUrl: string) => Record<string, unknown>): Promise<SettlementRig> {
  const upstream = await startUsageUpstream()
  const receiver = await startOtlpReceiver()
  const proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    recorder: { mode: 'all' },
    otel: { endpoint: receiver.url },
    ...entries(upstream.url),
  })
  return { upstream, receiver, proxy }
}

/** Stops what `startSettlementRig` started (the proxy unless a test closed it already). */
export async function stopSettlementRig(rig: Partial<SettlementRig>, proxyClosed: boolean): Promise<void> {
  if (!proxyClosed) await rig.proxy?.close()
  await rig.upstream?.close()
  await rig.receiver?.close()
}

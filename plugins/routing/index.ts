import { defineProxyPlugin } from '../../core/plugin.ts'
import type { Candidate } from '../../core/hooks.ts'

/**
 * Routing: model -> candidates from the kernel's model index, then a round-robin pick per model among
 * the candidates not yet tried for this request.
 */
export default defineProxyPlugin({
  name: 'routing',
  setup(kernel) {
    const cursors = new Map<string, number>()
    kernel.hooks.hook('route-resolve', (ctx) => {
      if (!ctx.candidates.length) ctx.candidates = kernel.models.get(ctx.request.model) ?? []
    })
    kernel.hooks.hook('credential-pick', (ctx) => {
      if (ctx.pick) return
      const open: Candidate[] = ctx.candidates.filter(candidate => !ctx.tried.has(candidate.credential.id))
      if (!open.length) return
      const cursor = cursors.get(ctx.request.model) ?? 0
      cursors.set(ctx.request.model, cursor + 1)
      ctx.pick = open[cursor % open.length]
    })
  },
})

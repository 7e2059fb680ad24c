import { defineProxyPlugin } from 'model-proxy'
import { applyRules, ruleMatches } from './apply.ts'
import { compileRules, type CompiledRule } from './compile.ts'

/** Payload rules (`payload`) on the body actually sent upstream, recompiled on every config change. */
export default defineProxyPlugin({
  name: 'payload-rules',
  setup(kernel) {
    const compile = () => compileRules(kernel.config.payload, message => kernel.logger.warn(message))
    let rules: CompiledRule[] = compile()
    kernel.hooks.hook('config-reload', () => { rules = compile() })
    kernel.hooks.hook('before-upstream', ({ request, candidate, http }) => {
      if (!rules.length || !http.json) return
      // The family names the protocol its requests match (ProviderDef.payloadProtocol); one that names none matches only rules without one.
      const protocol = kernel.providers.get(candidate.credential.family)?.payloadProtocol ?? ''
      const target = { models: [candidate.upstreamModel, request.model], protocol }
      // No rule for this model: the body is not even read (a same-format body unread goes upstream as the client's bytes).
      if (!rules.some(rule => ruleMatches(rule, target))) return
      // The body may share objects with the client's request (same-format fast path): work on a copy.
      const body = structuredClone(http.json.read())
      if (applyRules(body, rules, target)) http.json.replace(body)
    })
  },
})

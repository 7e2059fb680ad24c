/**
 * `model-proxy/kit/tokens`: token counting. Answers a format's count-tokens route locally and gives
 * routing an estimate of a request's size. Used by the alpha and beta families and the routing plugin.
 */

/** Estimated input tokens of a canonical request (messages, system, tools). */
export { countRequestTokens } from '../canonical/count-tokens.ts'

/**
 * `model-proxy/kit/signatures`: thinking signatures across formats. A signature one upstream issued is
 * sealed in an envelope before it reaches a client of another format and unsealed on its way back, so
 * the right upstream gets it. Used by the families whose formats carry reasoning (alpha, beta, gamma).
 */

/** The signature to show a client of `format` for a thinking part (sealed when it came from elsewhere). */
export { signatureToClient } from '../canonical/signature.ts'
/** Reads a signature a client sent back: its value and the format that issued it. */
export { signatureFromClient } from '../canonical/signature.ts'
/** The signature to send an upstream of `format`, or nothing when another format issued it. */
export { signatureToUpstream } from '../canonical/signature.ts'
/** True for a sealed signature (an envelope). */
export { isEnvelope } from '../canonical/signature.ts'

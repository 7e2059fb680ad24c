/**
 * `model-proxy/kit/access`: who a request comes from. Client keys, client access checks, trusted
 * in-process calls, and masking secrets before they are shown or logged. Used by most feature plugins
 * (client-keys, management, websocket, mcp, recorder, usage, routing, logs...) and the alpha and partner families.
 */

/** The client key a request carries (each SDK sends it its own way), its short id (safe to log), the key directory. */
export { clientKeyId, readClientKey, type ClientKeyDirectory } from '../edge/client-key.ts'
/** The client-key rule for a request or socket, a route's caller check, a loopback address, a trusted in-process call. */
export { authorizeClient, checkClientAccess, checkModelAllowed, isLoopback, trustedClient, type SocketPeer } from '../edge/client-access.ts'
/** Mask a secret for display, mask given secrets inside a text, scrub a credential an upstream echoed. */
export { credentialSecrets, encodedForms, isSecretHeader, maskSecret, maskValues, scrubSecrets, secretsPattern, textSpellings } from '../provider/credential.ts'
/** An upstream answer's bytes with given secrets masked, as they stream. */
export { scrubReadable } from '../pipeline/scrub-transform.ts'

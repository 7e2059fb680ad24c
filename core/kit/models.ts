/**
 * `model-proxy/kit/models`: model names and how families and formats are called. Match model patterns,
 * tell which offers are served, name families and wire formats for people. Used by the routing,
 * client-keys, mcp, management, credential-files and payload-rules plugins and the partner family.
 */

/** Match a model against a pattern (`exact`, `prefix-*`, `*-suffix`, `*substring*`); `excluded-models` checks. */
export { isExcluded, isServedOffer, matchModelPattern } from '../models/model-match.ts'
/** The identity of one candidate: a credential and an upstream model. */
export { candidateKey } from '../models/model-index.ts'
/** Families and wire formats in words, and the kind of key a family takes. */
export { describeFamily, describeWireFormat, keyKindOf } from '../canonical/format-names.ts'
/** A client's model name cut to a length fit for records, logs and messages (over 200 characters). */
export { shownModelName } from '../models/shown-name.ts'
/** The order of a model listing (total: every id has one place), for sorting it and placing a page's cursor. */
export { compareModelIds } from '../models/listing-order.ts'

/**
 * `model-proxy/kit/codec`: helpers for writing a wire codec (request, response and stream translation
 * through the canonical types). Used by the built-in families in providers/; a third-party family may
 * use them too (docs/provider-families.md).
 */

/** Whether a client's role can be a role name at all (a string, no control characters): others are a 400. */
export { isRoleName } from '../canonical/role-name.ts'
/** A stream chunk serialized once with a slot, filled per piece (many small events without a stringify each). */
export { ChunkTemplate, type PieceEvent } from '../canonical/chunk-template.ts'
/** Puts interleaved tool-call stream events in order: one call at a time, each whole, as clients expect. */
export { createToolCallSequencer } from '../canonical/tool-call-order.ts'
/** Files and images: build, parse and split `data:` URLs, tell image types, whether a file id means something upstream. */
export { chatAudioFormat, dataUrl, fileIdValidAt, isImageType, parseDataUrl, splitDataUrl } from '../canonical/files.ts'
/** Whether an upstream format can carry a document (the encoders skip, and name as dropped, the others). */
export { fileCarried } from '../canonical/content-losses.ts'
/** Reasoning effort as a thinking-token budget, and canonical reasoning as the chat/responses effort knob. */
export { effortBudget, openaiEffort } from '../canonical/reasoning.ts'
/** The messages API's defaults (max_tokens, smallest budget, top_p floor) and the thinking budget to send. */
export { messagesBudget, messagesDefaults } from '../canonical/request-rules.ts'
/** Web search on chat completions: whether a model takes `web_search_options`, and those options. */
export { chatSearchModel, chatSearchOptions } from '../canonical/chat-search.ts'
/** Random hex characters for response and call ids (cheap: drawn from a cached entropy pool). */
export { randomToken } from '../canonical/random-id.ts'
/** A token count an upstream reported, or undefined when it is none (usage decoders read every field through it). */
export { tokenCount } from '../canonical/token-count.ts'

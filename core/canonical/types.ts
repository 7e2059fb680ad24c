// Canonical representation: the hub every wire format decodes into and encodes from.
// N formats need 2N codecs, not N² translators (see README, Architecture).

export type Role = 'system' | 'user' | 'assistant' | 'tool'

/** `refusal`: the model declined (chat `refusal`, responses refusal parts); other formats show it as text. `citations`: web sources backing it. */
export interface TextPart { type: 'text'; text: string; refusal?: boolean; citations?: Citation[] }
/**
 * A web source backing a span of a text part (messages `web_search_result_location`, responses
 * `url_citation`, Gemini `groundingSupports`). `start`/`end`: character offsets in the part's text
 * (absent: the whole part). `opaque` is the vendor's encrypted index, valid only at `origin`.
 */
export interface Citation { url: string; title?: string; citedText?: string; start?: number; end?: number; origin?: string; opaque?: string }
/** One result of a hosted web search; `opaque` is the vendor's encrypted page content, valid only at `origin`. */
export interface WebSource { url: string; title?: string; pageAge?: string; opaque?: string }
/**
 * A hosted web search the vendor ran while answering (messages `server_tool_use` + `web_search_tool_result`,
 * responses `web_search_call`, Gemini `groundingMetadata`): its query, its results, or its error code.
 */
export interface WebSearchPart { type: 'web_search'; id: string; query?: string; sources: WebSource[]; error?: string; origin?: string }
/**
 * Image by value (`data`: base64 without the data: prefix) or by reference (`url`). `detail`: the
 * resolution chat and responses let a client ask for (`low`, `high`...; absent: `auto`).
 */
export interface ImagePart { type: 'image'; mediaType?: string; data?: string; url?: string; detail?: string }
/**
 * A document by value (`data`: base64), by reference (`url`) or as an upload (`fileId`, valid only at the
 * vendor of the format named in `origin`). `mediaType` decides what a target makes of it (PDF, plain text).
 */
export interface FilePart { type: 'file'; mediaType?: string; data?: string; url?: string; fileId?: string; filename?: string; origin?: string }
/**
 * A tool declared inside a group of tools (responses `namespace` tools): the group's name and the tool's
 * name inside it. Formats without groups see the tool under one flat `name` that keeps both.
 */
export interface ToolNamespace { name: string; tool: string }
/**
 * `arguments` is JSON text, exactly as produced by the model (may be partial only inside streams).
 * `namespace`: the call is of a grouped tool; `name` is then its flat name (the one upstreams see).
 */
export interface ToolCallPart { type: 'tool_call'; id: string; name: string; arguments: string; namespace?: ToolNamespace }
export interface ToolResultPart {
  type: 'tool_result'
  callId: string
  name?: string
  content: string | Array<TextPart | ImagePart>
  isError?: boolean
}
export interface ThinkingPart {
  type: 'thinking'
  text: string
  signature?: string
  redacted?: boolean
  /** Wire format that signed it: a signature is only valid where it was made, so encoders drop foreign ones. */
  origin?: string
}

export type Part = TextPart | ImagePart | FilePart | ToolCallPart | ToolResultPart | ThinkingPart | WebSearchPart

/** System messages stay in order inside `messages`; formats with a top-level system field gather them. */
export interface Message { role: Role; parts: Part[]; name?: string }

/**
 * `namespace`: declared inside a group of tools; `name` is then the flat name every format accepts.
 * `strict`: calls must match the schema exactly (chat `function.strict`, responses `strict`).
 */
export interface ToolDef { name: string; description?: string; parameters?: Record<string, unknown>; namespace?: ToolNamespace; strict?: boolean }
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string }

/** `auto`: the model decides (messages `thinking: {type: 'adaptive'}` without an effort, generateContent budget -1). */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | 'auto'
/** Either an effort level or an explicit budget; `core/canonical/reasoning.ts` converts between them. */
export interface Reasoning { effort?: ReasoningEffort; budgetTokens?: number; includeThoughts?: boolean }

/** The vendors' hosted web search tool (messages `web_search_*`, responses `web_search`, generateContent `googleSearch`). */
export interface WebSearch {
  allowedDomains?: string[]
  blockedDomains?: string[]
  maxUses?: number
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string }
  contextSize?: 'low' | 'medium' | 'high'
}

export interface ResponseFormat { type: 'text' | 'json_object' | 'json_schema'; name?: string; schema?: Record<string, unknown>; strict?: boolean }

export interface CanonicalRequest {
  model: string
  messages: Message[]
  stream: boolean
  maxTokens?: number
  temperature?: number
  topP?: number
  topK?: number
  stop?: string[]
  presencePenalty?: number
  frequencyPenalty?: number
  seed?: number
  n?: number
  tools?: ToolDef[]
  toolChoice?: ToolChoice
  parallelToolCalls?: boolean
  reasoning?: Reasoning
  responseFormat?: ResponseFormat
  user?: string
  webSearch?: WebSearch
  /** chat and responses: cache routing key, end-user id for abuse checks, answer length, server-side storage. */
  promptCacheKey?: string
  safetyIdentifier?: string
  verbosity?: 'low' | 'medium' | 'high'
  store?: boolean
  /** Fields a format has and the canonical request lacks, keyed by wire format name, so same-family round trips lose nothing. */
  extensions?: Record<string, Record<string, unknown>>
  /**
   * What the decoder could keep only in `extensions` or had to skip (unknown fields, server tools, block
   * types, roles), in the client's own words: all of it is lost when the request goes to another format.
   */
  unmapped?: string[]
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter'

export interface Usage {
  inputTokens: number
  outputTokens: number
  totalTokens?: number
  cachedInputTokens?: number
  cacheCreationInputTokens?: number
  reasoningTokens?: number
  /** The upstream reported no usage (or the stream was cut before it did): these counts are the proxy's estimate. */
  estimated?: boolean
}

export interface CanonicalResponse {
  id: string
  model: string
  /** Unix seconds. */
  created?: number
  /** The assistant's output, in order. */
  parts: Part[]
  finishReason: FinishReason
  usage?: Usage
  stopSequence?: string
  /** Further candidates when the request asked for `n > 1` (chat `choices`, generateContent `candidates`). */
  alternatives?: Array<{ parts: Part[]; finishReason: FinishReason }>
}

/**
 * Stream events. `index` numbers the output parts of one response (0, 1, 2...) in the order they
 * start; a decoder gives every new text block, thinking block or tool call the next index.
 * A decoded stream is: one `start`, any number of deltas, then exactly one `finish` (or one `error`).
 * With `n > 1` a part's `choice` names its candidate (absent: 0); indexes stay unique across choices,
 * and the finish's `choices` holds every candidate's own finish reason.
 */
export type StreamEvent =
  | { type: 'start'; id: string; model: string; usage?: Usage }
  | { type: 'text'; index: number; delta: string; refusal?: boolean; choice?: number }
  | { type: 'thinking'; index: number; delta: string; signature?: string; redacted?: boolean; origin?: string; choice?: number }
  | { type: 'tool_call_start'; index: number; id: string; name: string; choice?: number; namespace?: ToolNamespace }
  | { type: 'tool_call_delta'; index: number; delta: string; choice?: number }
  /** A hosted web search, whole (its own part index); a citation attaches to the text part `index`. */
  | { type: 'web_search'; index: number; search: WebSearchPart }
  | { type: 'citation'; index: number; citation: Citation }
  | { type: 'finish'; reason: FinishReason; usage?: Usage; stopSequence?: string; choices?: FinishReason[] }
  /** `usage`: what the upstream had reported before the error (the charge for a failed stream starts from it). */
  | { type: 'error'; status: number; message: string; errorType?: string; usage?: Usage }

/**
 * `model-proxy/kit/http`: the HTTP side of a family and of plugins that serve routes: register a client
 * format's routes and run them through the pipeline, parse and write stream frames, respond, send to an
 * upstream. Used by the families in providers/ and by plugins that serve or send (models, management,
 * websocket, response-chain, recorder, panel, outbound-proxy).
 */

/** Serve a client format: register its routes, read the body, make the request and run the pipeline. */
export { addClientRoute, readClientBody, readJsonObject, type ClientRoute } from '../edge/client-route.ts'
export { createProxyRequest, type RequestInit as ProxyRequestInit } from '../pipeline/request.ts'
export { runPipeline, type RunOptions } from '../pipeline/run.ts'
/** Server-sent events: an incremental parser and one event's text; the parser for any codec framing. */
export { createSseParser, formatSse } from '../framing/sse.ts'
export { createFrameParser } from '../framing/frames.ts'
/** A UTF-8 decoder that keeps a character split across chunks for the next one. */
export { Utf8Decoder } from '../framing/utf8-decoder.ts'
/** Typed state on an object (a mark an in-process caller puts on the `Request` it hands the app). */
export { defineObjectState, type ObjectState } from '../kernel/request-state.ts'
/** Responses: a JSON body, a piped stream, and draining a body nobody reads. */
export { discardBody, jsonResponse, pipedResponse } from '../edge/respond.ts'
/** A HEAD answered as its GET, without the body: for a plugin's catch-all route, which h3's own HEAD-to-GET fallback never reaches. */
export { answerHead } from '../edge/respond.ts'
/** The client's headers among a list of names, for a family to pass on (never credentials). */
export { pickClientHeaders } from '../edge/client-headers.ts'
/** Send a request upstream through the shared pool, and the dispatchers an outbound proxy plugs in. */
export { proxyDispatcherFactories, sendUpstream, type UpstreamHttpResponse } from '../upstream/send.ts'
/** A request that got no answer, in words for the caller (never an address) and in detail for the log. */
export { describeConnectFailure } from '../upstream/connect-error.ts'
/** All of undici, loaded on first use (the upstream path loads only its agent: core/upstream/undici.ts). */
export { loadUndici } from '../upstream/undici.ts'

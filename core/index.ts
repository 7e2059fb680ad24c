/**
 * `model-proxy`: the public API, what plugin authors and embedders import (docs/plugins.md): the define*
 * helpers, the hook, request, provider and codec types, config types, embedding. Helpers for writing a
 * provider family or a feature plugin are grouped in the kit, `model-proxy/kit/<group>` (core/kit/).
 */

// Plugins: the identity helpers and the kernel a plugin's setup receives.
export { defineProxyPlugin, type ProxyPlugin, type PluginSpec } from './plugin-host/plugin.ts'
export type { ProxyKernel, ProxyServices } from './kernel/kernel.ts'
export type { ProxyHooks, ProxyRequest, Candidate, RouteContext, PickContext, UpstreamContext, AttemptResult, UpstreamReplyContext, StreamWatch, ResponseContext } from './kernel/hooks.ts'
/** The status a finished request counts as in records (`after-response`): 499 for a stream that failed after its 200. */
export { endedStatus } from './kernel/hooks.ts'
export { observerHooks, type ProxyHookBus } from './kernel/hook-bus.ts'

// Providers: a family's credentials, config, catalog and how it addresses its upstream.
export { defineProvider, type ProviderDef, type UpstreamCall, type ProviderConfigKey, type ProviderTestCall } from './provider/provider.ts'
export type { CredentialFileDef, CredentialFilePrepare, CredentialFileData, OAuthClient } from './provider/provider-files.ts'
export { keyListConfig, keyEntryCredentials } from './provider/provider-keys.ts'
export { providerKeyEntrySchema, type ProviderKeyEntry } from './config/schema-entries.ts'
export type { Credential, ModelOffer, CredentialState } from './provider/credential.ts'
export { defineModels, type ModelInfo } from './models/model-info.ts'
export type { UpstreamHttpRequest } from './upstream/send.ts'

// Codecs: one per wire format, through the canonical types.
export {
  defineCodec, type WireCodec, type WireFormat, type BuiltinWireFormat, type StreamFrame, type SseEvent, type StreamFraming,
  type StreamDecoder, type StreamUsageOption, type StreamEncoder, type StreamEncoderOptions, type ProxyErrorInfo, type ListedModel, type ModelListShape,
} from './canonical/codec.ts'
export type * from './canonical/types.ts'
export { RequestValidationError } from './canonical/errors.ts'

// Requests: a field of the client's body, a plugin's own state for one request, the error to throw, h3's typed context.
export { BodyReleasedError, requestField } from './pipeline/request.ts'
// The upstream request's JSON body: one handle that is read, edited or replaced (the client's own bytes go while nobody did).
export { JsonBody } from './json/index.ts'
export { defineRequestState, type RequestState } from './kernel/request-state.ts'
export { ProxyError } from './errors/proxy-error.ts'
export type { ProxyEventContext } from './edge/event-context.ts'

// Config: proxy.config.ts, the YAML's typed shape, and the schema library plugins declare their keys with.
export { defineProxyConfig, type ProxyProjectConfig } from './config/project.ts'
export { configSchema, type ProxyConfig, type CoreConfig } from './config/schema.ts'
export type { StorageOptions } from './storage/storage.ts'
export { z } from 'zod'

// Embedding: build the app (fetch handler) or start the whole server.
export { createProxy, type Proxy, type CreateProxyOptions } from './app.ts'
export { startProxy, type RunningProxy, type StartOptions } from './runtime/start.ts'

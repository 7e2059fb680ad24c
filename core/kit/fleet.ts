/**
 * `model-proxy/kit/fleet`: state shared by several proxy processes (a fleet over one storage): shared
 * documents, leases, storage, and which process this is. Used by the credential-files, client-keys, mcp,
 * recorder, logs and access-log plugins.
 */

/** The fleet a plugin's kernel exposes: shared storage and this process's place in it. */
export type { Fleet } from '../fleet/fleet.ts'
/** The sync bases of a folder's shared files (what was last synced), kept beside them on disk. */
export { FileBaseStore } from '../fleet/base-store.ts'
/** A lease held by one instance at a time, gone by itself if its holder dies. */
export { acquireLease } from '../fleet/lease.ts'
/** Versioned documents in Redis (config, credential files), with a channel announcing each commit. */
export { SharedDocs } from '../fleet/shared-docs.ts'
/** Reconcile a local file with the fleet's version (local edits replayed onto the newest). */
export { reconcileDoc, type LocalCopy, type MadeHere, type SyncOutcome } from '../fleet/synced-doc.ts'
/** A name of the user's inside a storage key: kept apart from every other name by unstorage's key normalization. */
export { fromStorageKeyPart, storageKeyPart } from '../storage/key-part.ts'
/** The storage a proxy is built with (tests of plugins build their own), and its Redis client when it has one. */
export { createProxyStorage, redisOf } from '../storage/storage.ts'
/** Whether this process is a CLI-started server (owns its stdout), and whether a process id is alive. */
export { processRole } from '../runtime/process-role.ts'
export { isProcessAlive } from '../runtime/process-alive.ts'

/**
 * `model-proxy/kit/config`: the config file and the files the proxy writes. Read, validate and merge
 * config, write files atomically and one at a time. Used by the management and credential-files
 * plugins (which edit config and credentials on disk), routing (its rules) and the compat family (named upstreams).
 */

/** The YAML config file on disk: read, edit and write it back, with the changes it saw. */
export { ConfigConflictError, ConfigFile, type ConfigChange } from '../config/config-file.ts'
/** Validate a config object; its errors, and the keys no plugin declared. */
export { ConfigError, formatIssues, unknownTopLevelKeys, validateConfig } from '../config/validate.ts'
/** `${env:NAME}` and `${file:/path}` references in config data replaced by what they name (as the proxy reads the file). */
export { holdsSecretRef, resolveSecretRefs } from '../config/secret-refs.ts'
/** The SHA-256 of a text in hex (to tell whether a file changed). */
export { hashText } from '../config/config-text.ts'
/** Merge JSON into a document, how many changes turn one text into another, and what names a config list's entry. */
export { changeCount, identityOf, mergeJson } from '../config/merge.ts'
/** Write a file atomically (temp file + rename), and a guard that it still holds what was read. */
export { unchangedSince, writeFileAtomic } from '../config/atomic-write.ts'
/** Remove temp files an interrupted atomic write left behind. */
export { sweepAtomicTempFiles } from '../config/sweep-temp.ts'
/** Run writes to one file one at a time, in order. */
export { serializeFileTask } from '../config/write-queue.ts'
/** Schemas and checks for upstream base URLs and named upstream entries. */
export { baseUrlSchema, upstreamUrlProblem } from '../config/upstream-url.ts'
export { namedUpstreamEntrySchema } from '../config/schema-entries.ts'
/** A routing rule as the config declares it. */
export type { RoutingRule } from '../config/schema-routing.ts'

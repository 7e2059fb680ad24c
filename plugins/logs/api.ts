/**
 * What the logs plugin offers other plugins: masking secrets in what they keep (the flight recorder
 * redacts its records with the same rules as the request logs). Everything else in this folder is private.
 */
export { redact, secretsOf } from './redact.ts'

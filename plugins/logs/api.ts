/**
 * What the logs plugin offers other plugins: the secrets a config holds (the flight recorder masks its
 * records with them). Everything else in this folder is private.
 */
export { secretsOf } from './redact.ts'

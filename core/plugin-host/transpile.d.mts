import type { JitiOptions } from 'jiti'

/** Types of core/plugin-host/transpile.mjs (plain JS: bin.mjs imports it before jiti runs). */
export declare const transform: JitiOptions['transform']

export interface Transpiler {
  transform: NonNullable<JitiOptions['transform']>
  /** Whether its worker thread is running now. */
  running(): boolean
}

/** A transform backed by its own worker thread (tests: another worker, shorter waits). */
export declare function createTranspiler(options?: { babel?: string; worker?: URL; idleMs?: number; bootMs?: number; waitMs?: number }): Transpiler

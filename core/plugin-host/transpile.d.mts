import type { JitiOptions } from 'jiti'

/** Types of core/plugin-host/transpile.mjs (plain JS: bin.mjs imports it before jiti runs). */
export declare const transform: JitiOptions['transform']

/** Types of panel/build.mjs (plain JS so `node panel/build.mjs` runs with no loader). */
export declare const panelDist: string
export declare const panelPage: string
export declare function pageHtml(js: string, css: string): string
export declare function buildPanel(options?: { outFile?: string; minify?: boolean }): Promise<{ path: string; bytes: number }>

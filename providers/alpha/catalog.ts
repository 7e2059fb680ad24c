/** Current model ids of the generative-model service (limits and thinking ranges arrive with issue 4). */
export const alphaCatalog = ['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite']

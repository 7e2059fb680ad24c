/** Current model ids served through the cloud platform (limits and thinking ranges: see issue 4 notes). */
export const deltaCatalog = ['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite']

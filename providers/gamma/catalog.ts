/** Current model ids of the code-model service (limits and reasoning ranges arrive with issue 4). */
export const gammaCatalog = ['gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5.1', 'gpt-5-codex', 'gpt-5']

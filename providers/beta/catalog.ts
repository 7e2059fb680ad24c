/** Current model ids of the assistant-model service (limits and thinking ranges arrive with issue 4). */
export const betaCatalog = [
  'claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4-0',
]

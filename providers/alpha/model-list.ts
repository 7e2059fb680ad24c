/** One model in the generateContent list shape (`GET /v1beta/models`). */
export function alphaModelEntry(id: string) {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    description: `${id} through the proxy`,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  }
}

import { alphaModels } from '../alpha/api.ts'

/** The cloud platform serves the generative-model service's models, same limits. */
export const deltaModels = alphaModels
export const deltaCatalog = deltaModels.map(model => model.id)

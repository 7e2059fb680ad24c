import { ProxyError, type ListedModel, type ModelListShape } from 'model-proxy'
import { compareModelIds } from 'model-proxy/kit/models'

/** One model as `GET /v1beta/models/{model}` answers it, with the catalog's limits when known. */
function entry({ id, info }: ListedModel) {
  return {
    ...(info && { inputTokenLimit: info.contextWindow, outputTokenLimit: info.maxOutput, thinking: !!info.thinking }),
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    description: `${id} through the proxy`,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  }
}

const invalid = (message: string) => new ProxyError(400, message, 'invalid_request_error')

// A page token names the last model shown: the next page starts after it by id, so a model that left
// the list between two pages (its credentials cooled down) moves nothing. The prefix tells a token of ours.
const tokenPrefix = 'after:'
export const pageTokenAfter = (id: string) => Buffer.from(tokenPrefix + id).toString('base64url')
function idAfter(token: string): string {
  const text = Buffer.from(token, 'base64url').toString()
  if (!text.startsWith(tokenPrefix)) throw invalid('pageToken: not a page token this listing gave')
  return text.slice(tokenPrefix.length)
}

/** `pageSize` as the API takes it: 50 when absent or 0, at most 1000 (a larger one is cut), never negative. */
function pageSizeOf(query: URLSearchParams): number {
  const raw = query.get('pageSize')
  if (raw === null || raw === '') return 50
  const size = Number(raw)
  if (!Number.isInteger(size) || size < 0) throw invalid(`pageSize: must be a whole number of 0 or more, got ${JSON.stringify(raw.slice(0, 40))}`)
  return size === 0 ? 50 : Math.min(size, 1000)
}

/** The page a generateContent SDK asks for: `pageSize` models after `pageToken`'s, and the token of the next page when there is one. */
export function generateModelPage(models: ListedModel[], query: URLSearchParams): { page: ListedModel[]; nextPageToken?: string } {
  const size = pageSizeOf(query)
  const token = query.get('pageToken')
  const after = token ? idAfter(token) : undefined
  const rest = after === undefined ? models : models.filter(model => compareModelIds(model.id, after) > 0)
  const page = rest.slice(0, size)
  return rest.length > size ? { page, nextPageToken: pageTokenAfter(page.at(-1)!.id) } : { page }
}

/** `{models: [...], nextPageToken}` (the token only when more pages follow), and one model. */
export const generateModelList: ModelListShape = {
  list(models, query) {
    const { page, nextPageToken } = generateModelPage(models, query)
    return { models: page.map(entry), ...(nextPageToken && { nextPageToken }) }
  },
  entry,
}

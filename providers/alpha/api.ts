/**
 * What the alpha family offers other families: its model catalog and Google's OAuth client, which the
 * delta family (a cloud relay of the same wire format) serves too. Everything else in this folder is private.
 */
export { alphaModels } from './catalog.ts'
export { googleOAuth } from './oauth.ts'

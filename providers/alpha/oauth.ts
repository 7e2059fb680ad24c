/**
 * The vendor's account sign-in shared by the alpha, alpha-cli and delta families (its CLI's public
 * client id). Its `client-secret` is not shipped: set it under `oauth-clients.<type>`.
 */
export const googleOAuth = {
  'authorize-url': 'https://accounts.google.com/o/oauth2/v2/auth',
  'token-url': 'https://oauth2.googleapis.com/token',
  'client-id': '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
  'authorize-params': { access_type: 'offline', prompt: 'consent' },
}

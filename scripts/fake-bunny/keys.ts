// The fake library's keys: well-known local values, like the local JWT secret (never real Bunny keys).
export const FAKE_BUNNY_KEYS = {
  libraryId: '424242',
  apiKey: 'fake-bunny-api-key',
  readOnlyApiKey: 'fake-bunny-read-only-key',
  tokenKey: 'fake-bunny-token-key',
};

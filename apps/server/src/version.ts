/** Version reported by `/health` and the OpenAPI document (kept equal to package.json). */
export const SERVER_VERSION = '0.1.0';

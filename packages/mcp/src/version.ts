/** Version of `@skillport/mcp`, reported as `serverInfo.version` (kept equal to package.json). */
export const MCP_PACKAGE_VERSION = '0.1.0';

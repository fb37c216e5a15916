// Public API of @skillport/mcp: everything exported here is supported; nothing else is.
// Runtime-neutral: the server definition imports no `node:*` module; bind it to a transport of
// `@modelcontextprotocol/sdk` (stdio in the CLI, Streamable HTTP in the server).

export {
  createSkillportMcpServer,
  SKILLPORT_MCP_INSTRUCTIONS,
  type SkillportMcpServerOptions,
} from './create-mcp-server.js';
export type {
  RegistryFile,
  RegistryFindOptions,
  RegistryGetOptions,
  RegistryListOptions,
  SkillRegistry,
} from './registry.js';
export { MCP_PACKAGE_VERSION } from './version.js';

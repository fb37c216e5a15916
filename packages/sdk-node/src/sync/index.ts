// Public API of @skillport/sdk-node/sync: everything exported here is supported; nothing else is.
// Node-only (worker threads).

export type { SyncClientOptions } from './protocol.js';
export type { SyncSkillSource } from './sync-client.js';
export { SyncHTTPClient } from './sync-client.js';

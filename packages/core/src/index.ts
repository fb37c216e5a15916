// Public API of @skillport/core: everything exported here is supported; nothing else is.
// Runtime-neutral: no `node:*` imports (Node-only code lives in `@skillport/core/node`).

// Errors, names, skill file paths and viking:// URIs (the error envelope and name rule of the OpenAPI document, the skill model of the @skillport/core README): the dependency-free part, also `@skillport/core/base`.
export * from './base/index.js';
// MCP tool <-> skill conversion (the MCP ⇄ skill section of the @skillport/core README).
export { fromMcpTool, type McpSkillConversion } from './mcp/from-mcp-tool.js';
export { isMcpTool } from './mcp/is-mcp-tool.js';
export { type ToMcpToolOptions, toMcpTool } from './mcp/to-mcp-tool.js';
// Parse, serialize and validate SKILL.md (the @skillport/core README, the OpenAPI document: `POST /api/v1/skills/validate`).
export { MAX_FRONTMATTER_LENGTH, type ParseSkillMdOptions, parseSkillMd } from './parse/parse-skill-md.js';
export {
  type SerializableSkill,
  serializeSkillMd,
  skillMdFromStructured,
} from './parse/serialize-skill-md.js';
export { type FrontmatterSize, frontmatterSize } from './parse/split-frontmatter.js';
export { splitAllowedTools, splitTags } from './parse/split-lists.js';
// Toolbox: skills as agent tools, chat models, tool exports and the skills catalogue (the @skillport/core README).
export type { ChatCompleteOptions, ChatCompletion, ChatMessage, ChatModel } from './toolbox/chat-model.js';
export { ChatModelError, type ChatModelErrorOptions } from './toolbox/chat-model-error.js';
export {
  type CallToolOptions,
  createSkillToolbox,
  type SkillTool,
  type SkillToolbox,
  type SkillToolboxOptions,
  type SkillToolResult,
  type ToolboxSkill,
  type ToolboxWarning,
} from './toolbox/create-skill-toolbox.js';
export {
  createOpenAICompatibleModel,
  type OpenAICompatibleModelOptions,
} from './toolbox/openai-compatible-model.js';
export { type RegistrySkillLike, toolboxSkillsFromRegistry } from './toolbox/registry-skills.js';
export {
  type AvailableSkillEntry,
  escapeXml,
  renderAvailableSkills,
} from './toolbox/render-available-skills.js';
export {
  type McpToolDefinition,
  type OpenAIFunctionTool,
  SKILL_TOOL_PARAMETERS,
  type SkillToolParameters,
} from './toolbox/tool-definitions.js';
export type {
  IssueSeverity,
  McpTool,
  NamePolicy,
  ParsedSkill,
  ParseResult,
  SkillIssue,
  StructuredSkill,
  ValidationProfile,
  ValidationResult,
} from './types.js';
export {
  VALIDATION_PROFILES,
  type ValidateSkillOptions,
  validateAndParseSkillMd,
  validateSkill,
} from './validate/validate-skill.js';
export type {
  ApiKeyInfo,
  CreateAccountRequest,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateUserRequest,
} from './wire/admin.js';
// Wire schemas (zod 4) of every request and response of the HTTP API (the OpenAPI document).
export {
  AccountResultSchema,
  ApiKeyInfoSchema,
  CreateAccountRequestSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
  CreateUserRequestSchema,
  ListAccountsResultSchema,
  ListApiKeysResultSchema,
  ListUsersResultSchema,
  RevokeApiKeyResultSchema,
  UserResultSchema,
} from './wire/admin.js';
export type {
  ErrorBody,
  ErrorEnvelope,
  Telemetry,
  TelemetryRequest,
  ValidationErrorItem,
} from './wire/envelope.js';
export {
  ErrorBodySchema,
  ErrorCodeSchema,
  ErrorEnvelopeSchema,
  looseOptional,
  okEnvelope,
  TelemetryRequestSchema,
  TelemetrySchema,
  ValidationErrorItemSchema,
} from './wire/envelope.js';
export type {
  ListSkillRevisionsResult,
  RestoreSkillRequest,
  SkillRevision,
} from './wire/skill-history.js';
export {
  ListSkillRevisionsQuerySchema,
  ListSkillRevisionsResultSchema,
  RestoreSkillRequestSchema,
  RevisionRefSchema,
  SkillRevisionSchema,
} from './wire/skill-history.js';
export type {
  DeletedSkillItem,
  FindSkillItem,
  FindSkillsRequest,
  FindSkillsResult,
  GetSkillResult,
  ListSkillsResult,
  SkillFile,
  SkillListItem,
  ValidateSkillRequest,
  ValidateSkillResult,
} from './wire/skill-read.js';
export {
  DeletedSkillItemSchema,
  FindSkillItemSchema,
  FindSkillsRequestSchema,
  FindSkillsResultSchema,
  GetSkillQuerySchema,
  GetSkillResultSchema,
  ListSkillsQuerySchema,
  ListSkillsResultSchema,
  QueryFlagSchema,
  SkillFileSchema,
  SkillListItemSchema,
  ValidateSkillRequestSchema,
  ValidateSkillResultSchema,
} from './wire/skill-read.js';
export type {
  AddSkillRequest,
  DeleteSkillResult,
  QueueStatus,
  SkillIssueWire,
  SkillWriteResult,
} from './wire/skill-write.js';
export {
  AddSkillRequestSchema,
  DeleteSkillQuerySchema,
  DeleteSkillResultSchema,
  QueueStatusSchema,
  SkillDataSchema,
  SkillIssueSchema,
  SkillWriteResultSchema,
} from './wire/skill-write.js';
export type {
  HealthResult,
  ReadyResult,
  ServerLimitsResult,
  TaskResult,
  TempUploadReleaseResult,
  TempUploadResult,
  WaitRequest,
} from './wire/system.js';
export {
  HealthResultSchema,
  ReadyResultSchema,
  ServerLimitsSchema,
  TaskResultSchema,
  TempUploadFormSchema,
  TempUploadReleaseResultSchema,
  TempUploadResultSchema,
  WaitRequestSchema,
} from './wire/system.js';
export type {
  ComponentStatus,
  SystemStatus,
  TaskListQuery,
  TaskListResult,
} from './wire/tasks.js';
export {
  ComponentStatusSchema,
  SystemStatusSchema,
  TaskListQuerySchema,
  TaskListResultSchema,
} from './wire/tasks.js';

// Public API of @skillport/core: everything exported here is supported; nothing else is.
// Runtime-neutral: no `node:*` imports (Node-only code lives in `@skillport/core/node`).

export type {
  IssueSeverity,
  McpTool,
  ParsedSkill,
  ParseResult,
  SkillIssue,
  StructuredSkill,
  ValidationProfile,
  ValidationResult,
} from './types.js';

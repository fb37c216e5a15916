// Public API of @skillport/core/base: everything exported here is supported; nothing else is.
// The part of the package root that needs no dependency — errors, skill names, viking:// URIs and
// skill file paths — for code that must load fast or small (worker threads, start-up paths): it
// reaches neither zod nor yaml. Each export is the very value the package root exports (one
// `SkillportError` class, so `instanceof` holds across both entries). Runtime-neutral.

export type { ErrorCode, SkillportErrorBody, SkillportErrorOptions } from '../errors.js';
export { ERROR_CODES, ERROR_HTTP_STATUS, isErrorCode, isSkillportError, SkillportError } from '../errors.js';
export {
  SKILL_FILE_PATH_MAX_LENGTH,
  type SkillFilePathProblem,
  type SkillPathConflict,
  skillFilePathProblem,
  skillPathConflict,
} from '../file-path.js';
export {
  isValidSkillName,
  normalizeSkillName,
  SKILL_NAME_MAX_LENGTH,
  SKILL_NAME_PATTERN,
  storedSkillName,
  toKebabCase,
  toSkillSlug,
  toToolSlug,
} from '../names.js';
export {
  type SkillUploadPathOptions,
  type SkillUploadPathProblem,
  skillUploadPathProblem,
} from '../upload-path.js';
export type { ParseVikingUriOptions, VikingUri } from '../uri.js';
export {
  AGENT_SKILL_ROOT,
  HOME_SKILL_ROOT,
  parseVikingUri,
  resolveSkillRoot,
  USER_ID_PATTERN,
  userSkillRoot,
} from '../uri.js';
export { findInvalidUtf8, firstInvalidUtf8, type InvalidUtf8Position } from '../utf8.js';

// Public API of @skillport/core/node: everything exported here is supported; nothing else is.
// Node-only (filesystem loading, zipping and discovery of installed skills); the package root stays
// runtime-neutral.

export { DISCOVERY_DEFAULTS, discoverSkills } from './discovery/discover-skills.js';
export {
  createDiscoveryCache,
  type DiscoveryCache,
  type PackageScanEntry,
} from './discovery/discovery-cache.js';
export type {
  DiscoveredPackage,
  DiscoveredSkill,
  DiscoverSkillsOptions,
  DiscoveryDiagnostic,
  DiscoveryDiagnosticKind,
  DiscoveryResult,
  DiscoverySource,
  DiscoveryStrategy,
  DiscoveryTrust,
} from './discovery/types.js';
export { type LoadedSkillDir, loadSkillDir, type SkillDirFile } from './load-skill-dir.js';
export { type MakeFolderError, type MakeFolderOptions, makeFolderSync } from './make-folder.js';
export {
  type ScanSkillTreeOptions,
  type SkillTreeScan,
  type SkillTreeSkip,
  scanSkillTree,
} from './scan-skill-tree.js';
export {
  DEFAULT_SKILL_DIR_LIMITS,
  type SkillDirOptions,
  type SkippedEntry,
  type SkippedReason,
} from './skill-dir-options.js';
export {
  COMPRESSION_RATIO_FLOOR_BYTES,
  checkSkillZip,
  DEFAULT_UPLOAD_LIMITS,
  type SkillUploadLimits,
  type UploadLimitProblem,
} from './upload-limits.js';
export { type ZipSkillDirOptions, zipSkillDir } from './zip-skill-dir.js';

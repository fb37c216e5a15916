import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as base from '../src/base/index.js';
import * as core from '../src/index.js';

// Pins the public surface of the package root: adding, renaming or removing an export must be a
// deliberate change here (and comes with a changeset).
const CORE_EXPORTS = [
  'AGENT_SKILL_ROOT',
  'AccountResultSchema',
  'AddSkillRequestSchema',
  'ApiKeyInfoSchema',
  'ChatModelError',
  'ComponentStatusSchema',
  'CreateAccountRequestSchema',
  'CreateApiKeyRequestSchema',
  'CreateUserRequestSchema',
  'CreatedApiKeySchema',
  'DeleteSkillQuerySchema',
  'DeletedSkillItemSchema',
  'DeleteSkillResultSchema',
  'ERROR_CODES',
  'ERROR_HTTP_STATUS',
  'ErrorBodySchema',
  'ErrorCodeSchema',
  'ErrorEnvelopeSchema',
  'FindSkillItemSchema',
  'FindSkillsRequestSchema',
  'FindSkillsResultSchema',
  'GetSkillQuerySchema',
  'GetSkillResultSchema',
  'HOME_SKILL_ROOT',
  'HealthResultSchema',
  'ListAccountsResultSchema',
  'ListApiKeysResultSchema',
  'ListSkillRevisionsQuerySchema',
  'ListSkillRevisionsResultSchema',
  'ListSkillsQuerySchema',
  'ListSkillsResultSchema',
  'ListUsersResultSchema',
  'MAX_FRONTMATTER_LENGTH',
  'QueryFlagSchema',
  'QueueStatusSchema',
  'ReadyResultSchema',
  'RestoreSkillRequestSchema',
  'RevisionRefSchema',
  'RevokeApiKeyResultSchema',
  'SKILL_NAME_MAX_LENGTH',
  'SKILL_FILE_PATH_MAX_LENGTH',
  'skillFilePathProblem',
  'skillPathConflict',
  'skillUploadPathProblem',
  'SKILL_NAME_PATTERN',
  'SKILL_TOOL_PARAMETERS',
  'ServerLimitsSchema',
  'SkillDataSchema',
  'SkillFileSchema',
  'SkillIssueSchema',
  'SkillListItemSchema',
  'SkillRevisionSchema',
  'SkillWriteResultSchema',
  'SkillportError',
  'SystemStatusSchema',
  'TaskListQuerySchema',
  'TaskListResultSchema',
  'TaskResultSchema',
  'TelemetryRequestSchema',
  'TelemetrySchema',
  'TempUploadFormSchema',
  'TempUploadReleaseResultSchema',
  'TempUploadResultSchema',
  'USER_ID_PATTERN',
  'UserResultSchema',
  'VALIDATION_PROFILES',
  'ValidateSkillRequestSchema',
  'ValidateSkillResultSchema',
  'ValidationErrorItemSchema',
  'WaitRequestSchema',
  'createOpenAICompatibleModel',
  'createSkillToolbox',
  'escapeXml',
  'findInvalidUtf8',
  'firstInvalidUtf8',
  'fromMcpTool',
  'frontmatterSize',
  'isErrorCode',
  'isMcpTool',
  'isSkillportError',
  'isValidSkillName',
  'looseOptional',
  'normalizeSkillName',
  'okEnvelope',
  'parseSkillMd',
  'parseVikingUri',
  'renderAvailableSkills',
  'resolveSkillRoot',
  'serializeSkillMd',
  'skillMdFromStructured',
  'splitAllowedTools',
  'splitTags',
  'storedSkillName',
  'toKebabCase',
  'toMcpTool',
  'toSkillSlug',
  'toToolSlug',
  'toolboxSkillsFromRegistry',
  'userSkillRoot',
  'validateAndParseSkillMd',
  'validateSkill',
];

// The dependency-free subpath `@skillport/core/base`: values of the root, nothing that loads zod or yaml.
const BASE_EXPORTS = [
  'AGENT_SKILL_ROOT',
  'ERROR_CODES',
  'ERROR_HTTP_STATUS',
  'HOME_SKILL_ROOT',
  'SKILL_FILE_PATH_MAX_LENGTH',
  'SKILL_NAME_MAX_LENGTH',
  'SKILL_NAME_PATTERN',
  'SkillportError',
  'USER_ID_PATTERN',
  'findInvalidUtf8',
  'firstInvalidUtf8',
  'isErrorCode',
  'isSkillportError',
  'isValidSkillName',
  'normalizeSkillName',
  'parseVikingUri',
  'resolveSkillRoot',
  'skillFilePathProblem',
  'skillPathConflict',
  'skillUploadPathProblem',
  'storedSkillName',
  'toKebabCase',
  'toSkillSlug',
  'toToolSlug',
  'userSkillRoot',
];

const distDir = path.resolve(import.meta.dirname, '../dist');
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Every module reachable from `entry` through relative static or dynamic imports, with its bare imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((match) => match[1]!);
    const bare: string[] = [];
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), specifier));
      else bare.push(specifier);
    }
    graph.set(file, bare);
  }
  return graph;
}

describe('@skillport/core public surface', () => {
  it('exports exactly the pinned values', () => {
    expect(Object.keys(core).sort()).toEqual([...CORE_EXPORTS].sort());
  });

  it('built root entry reaches no Node builtin (runtime-neutral)', () => {
    const entry = path.join(distDir, 'index.js');
    expect(existsSync(entry), 'build @skillport/core first (pnpm build)').toBe(true);
    const graph = importGraph(entry);
    expect(graph.size).toBeGreaterThan(20);
    const offenders = [...graph].flatMap(([file, bare]) =>
      bare.filter((s) => NODE_BUILTINS.has(s)).map((s) => `${path.relative(distDir, file)} -> ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('built Node subpath does use Node builtins (the scan can see them)', () => {
    const entry = path.join(distDir, 'node', 'index.js');
    expect(existsSync(entry), 'build @skillport/core first (pnpm build)').toBe(true);
    const used = [...importGraph(entry).values()].flat().filter((s) => NODE_BUILTINS.has(s));
    expect(used.length).toBeGreaterThan(0);
  });

  it('@skillport/core/base exports exactly the pinned values, each that of the root', () => {
    expect(Object.keys(base).sort()).toEqual([...BASE_EXPORTS].sort());
    const baseValues = new Map(Object.entries(base));
    const rootValues = new Map(Object.entries(core));
    for (const name of BASE_EXPORTS) expect(baseValues.get(name), name).toBe(rootValues.get(name));
  });

  it('built base subpath imports no package at all (no zod, no yaml, no Node builtin)', () => {
    const entry = path.join(distDir, 'base', 'index.js');
    expect(existsSync(entry), 'build @skillport/core first (pnpm build)').toBe(true);
    const graph = importGraph(entry);
    expect(graph.size).toBeGreaterThan(3);
    const bare = [...graph].flatMap(([file, specifiers]) =>
      specifiers.map((s) => `${path.relative(distDir, file)} -> ${s}`),
    );
    expect(bare).toEqual([]);
    // The scan sees the root's packages (it would see them here too).
    expect([...importGraph(path.join(distDir, 'index.js')).values()].flat()).toEqual(
      expect.arrayContaining(['zod', 'yaml']),
    );
  });

  it('built make-folder subpath is one module that imports Node builtins only', () => {
    const entry = path.join(distDir, 'node', 'make-folder.js');
    expect(existsSync(entry), 'build @skillport/core first (pnpm build)').toBe(true);
    const graph = importGraph(entry);
    expect(graph.size).toBe(1);
    const bare = [...graph.values()].flat();
    expect(bare.length).toBeGreaterThan(0);
    expect(bare.filter((s) => !NODE_BUILTINS.has(s))).toEqual([]);
  });
});

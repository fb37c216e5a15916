/**
 * The shared test corpus (`skills/NNN-*` folders, `mcp/*.json` tools) and what the server should do
 * with each entry, computed from the files themselves with core.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromMcpTool, isValidSkillName, type McpTool, validateSkill } from '@skillport/core';
import { loadSkillDir } from '@skillport/core/node';
import { requireCorpus } from '../../../../scripts/test-corpus.js';

/** Root of the repository. */
export { REPO_ROOT } from '../../../../scripts/test-corpus.js';

/**
 * The corpus folder (`SKILLPORT_CORPUS`, else `../shared/corpus` beside the repository), for suites
 * declared with `describeCorpus`.
 * @throws Error when it is missing.
 */
export function corpusDir(): string {
  return requireCorpus();
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Decodes SKILL.md bytes as a client sends them: UTF-8, BOM kept, bad bytes replaced. */
export const decode = (bytes: Uint8Array): string =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** What adding a corpus skill folder should give. */
export interface SkillCase {
  /** Folder name, e.g. `001-anthropics-claude-api`. */
  id: string;
  dir: string;
  skillMd: Uint8Array;
  text: string;
  utf8: boolean;
  /** The skill name as the validator reads it (null when unreadable). */
  name: string | null;
  /** `null` when the add must succeed, else the error code it must fail with. */
  refusal: 'SKILL_INVALID' | 'INVALID_ARGUMENT' | null;
  /** The `details.field` of an INVALID_ARGUMENT refusal: `name`, or `SKILL.md` for bytes that are not UTF-8. */
  refusalField: 'name' | 'SKILL.md' | null;
  /** Auxiliary files as the folder upload carries them: relative path → sha-256. */
  auxiliary: Map<string, string>;
}

/** Expected outcome of every skill folder, in folder order (the order the tests add them). */
export async function skillCases(): Promise<SkillCase[]> {
  const root = path.join(corpusDir(), 'skills');
  const cases: SkillCase[] = [];
  for (const id of readdirSync(root).sort()) {
    const dir = path.join(root, id);
    const skillMd = new Uint8Array(readFileSync(path.join(dir, 'SKILL.md')));
    const text = decode(skillMd);
    const result = validateSkill(text);
    const name = result.name === null ? null : result.name.trim();
    const utf8 = isUtf8(skillMd);
    // The server stores SKILL.md byte for byte, so it refuses bytes that are not UTF-8 before parsing.
    const refusal = !utf8
      ? 'INVALID_ARGUMENT'
      : !result.valid
        ? 'SKILL_INVALID'
        : name === null || !isValidSkillName(name)
          ? 'INVALID_ARGUMENT'
          : null;
    const refusalField = refusal !== 'INVALID_ARGUMENT' ? null : utf8 ? 'name' : 'SKILL.md';
    const auxiliary = new Map<string, string>();
    if (refusal === null) {
      const loaded = await loadSkillDir(dir);
      for (const file of loaded.files) auxiliary.set(file.path, sha256(file.content));
    }
    cases.push({ id, dir, skillMd, text, utf8, name, refusal, refusalField, auxiliary });
  }
  return cases;
}

/** One corpus MCP tool and the skill name it becomes. */
export interface McpCase {
  id: string;
  file: string;
  tool: McpTool;
  name: string;
}

export function mcpCases(): McpCase[] {
  const root = path.join(corpusDir(), 'mcp');
  return readdirSync(root)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = path.join(root, f);
      const tool = JSON.parse(readFileSync(file, 'utf8')) as McpTool;
      return { id: f, file, tool, name: fromMcpTool(tool).name };
    });
}

/**
 * The final state after adding every accepted skill folder then every MCP tool, in order: name →
 * the entry that was written last under that name (later adds replace earlier ones).
 */
export function expectedFinalState(skills: SkillCase[], tools: McpCase[]): Map<string, SkillCase | McpCase> {
  const state = new Map<string, SkillCase | McpCase>();
  for (const skill of skills) if (skill.refusal === null && skill.name) state.set(skill.name, skill);
  for (const tool of tools) state.set(tool.name, tool);
  return state;
}

/**
 * Ten skills of the corpus and a hand-written paraphrase of what each does (not its description's
 * wording), for search checks.
 */
export const PARAPHRASES: ReadonlyArray<readonly [name: string, query: string]> = [
  ['linear', 'create or update tickets and team projects in the Linear issue tracker'],
  ['django-access-review', 'audit Django views and DRF endpoints for IDOR and broken authorization'],
  ['geomaster', 'satellite remote sensing and GIS spatial analysis for earth observation'],
  ['vercel-composition-patterns', 'refactor React components that take too many boolean props'],
  ['inno-grant-proposal', 'help a professor polish an NSF or NIH grant proposal'],
  ['browser-list-tabs', 'which browser tabs are open right now, with their URL and title'],
  [
    'aci-change-deploy',
    'roll out an APIC policy change under a ServiceNow change request with automatic rollback',
  ],
  ['mermaid-diagram-specialist', 'draw flowcharts and ERDs as Mermaid diagrams'],
  ['install-openviking-memory', 'set up the long-term memory plugin for OpenClaw'],
  ['access', 'approve a pairing and edit the allowlist of a Discord channel'],
];

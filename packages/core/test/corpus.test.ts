// The real-world corpus (shared/corpus): every SKILL.md goes through parse, validate (three profiles,
// strict and not) and serialize without throwing, and the odd files of MANIFEST.tsv get verdicts
// pinned by hand from reading them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeCorpus, findCorpus, requireCorpus } from '../../../scripts/test-corpus.js';
import {
  fromMcpTool,
  type McpTool,
  parseSkillMd,
  serializeSkillMd,
  VALIDATION_PROFILES,
  validateAndParseSkillMd,
  validateSkill,
} from '../src/index.js';

const corpus = findCorpus();
const skillDirs = corpus ? readdirSync(join(corpus, 'skills')).sort() : [];
const mcpFiles = corpus
  ? readdirSync(join(corpus, 'mcp'))
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

function readSkill(dir: string): string {
  return readFileSync(join(requireCorpus(), 'skills', dir, 'SKILL.md'), 'utf8');
}

describeCorpus('every corpus SKILL.md', () => {
  it('is present in a useful number', () => {
    expect(skillDirs.length).toBeGreaterThanOrEqual(70);
    expect(mcpFiles.length).toBeGreaterThanOrEqual(30);
  });

  it.each(skillDirs)('%s: parses, validates under every profile and serializes', (dir) => {
    const text = readSkill(dir);
    const parsed = parseSkillMd(text, { path: `skills/${dir}/SKILL.md` });
    for (const profile of VALIDATION_PROFILES) {
      for (const strict of [false, true]) {
        const result = validateSkill(text, { profile, strict, dirName: dir });
        expect(result.valid).toBe(result.errors.length === 0);
        expect(result.name).toBe(parsed.skill.name);
        // One parse for both: the same verdict and the same parsed skill as the two calls.
        const both = validateAndParseSkillMd(text, { profile, strict, dirName: dir });
        expect(both.validation).toEqual(result);
        expect(both.skill).toEqual(parseSkillMd(text).skill);
        for (const issue of [...result.errors, ...result.warnings]) {
          expect(issue.rule).toMatch(/^[a-z_]+$/);
          expect(issue.message.length).toBeGreaterThan(10);
        }
      }
    }
    const again = parseSkillMd(serializeSkillMd(parsed.skill)).skill;
    if (parsed.hasFrontmatter && parsed.issues.every((i) => i.severity === 'warning')) {
      expect(again.name).toBe(parsed.skill.name);
      expect(again.description).toBe(parsed.skill.description);
      expect(again.tags).toEqual(parsed.skill.tags);
      expect(again.allowedTools).toEqual(parsed.skill.allowedTools);
      expect(again.frontmatter).toEqual(parsed.skill.frontmatter);
    }
  });

  it.each(mcpFiles)('mcp/%s converts to a SKILL.md that parses back to the same skill', (file) => {
    const tool = JSON.parse(readFileSync(join(requireCorpus(), 'mcp', file), 'utf8')) as McpTool;
    const converted = fromMcpTool(tool);
    const { skill, issues } = parseSkillMd(converted.content);
    expect(issues).toEqual([]);
    expect(skill.name).toBe(converted.name);
    expect(skill.description).toBe(converted.description);
  });
});

/** A verdict written by hand from reading the file (profile openviking, not strict, no folder name). */
interface Pinned {
  /** Frontmatter located (both fences). Default true. */
  fm?: boolean;
  name: string | null;
  errors?: string[];
  warnings?: string[];
  tags?: string[];
  tools?: string[];
  /** Description length in code points (trimmed). */
  descLength?: number;
  /** Errors under strict openviking, when they differ from `errors`. */
  strictErrors?: string[];
  /** Errors under the agentskills profile. */
  agentskills?: string[];
  /** Line and rule of the first issue, when it is located. */
  at?: [rule: string, line: number, column: number];
  /** A substring of the first issue's message. */
  says?: string;
}

const pinned: Record<string, Pinned> = {
  // |- block description of 1068 code points with non-ASCII punctuation; body of 570 lines.
  '001-anthropics-claude-api': {
    name: 'claude-api',
    warnings: ['description_max_length'],
    descLength: 1068,
    strictErrors: ['description_max_length'],
    agentskills: ['description_max_length'],
  },
  // Historic: unquoted ": " in the description, recovered with a warning.
  '002-anthropics-claude-api-historic-yaml-error': {
    name: 'claude-api',
    warnings: ['yaml_unquoted_colon'],
    at: ['yaml_unquoted_colon', 3, 14],
    agentskills: [],
  },
  '003-anthropics-claude-api-historic-no-frontmatter': {
    fm: false,
    name: null,
    errors: ['yaml_format'],
    says: 'No frontmatter',
  },
  '005-anthropics-template': { name: 'template-skill', agentskills: [] },
  '006-openai-skill-installer': { name: 'skill-installer', agentskills: [] },
  '009-openviking-ov-add-paper': {
    name: 'ov-add-paper',
    tools: ['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep'],
    tags: ['openviking', 'paper-ingestion', 'research', 'ara'],
  },
  '010-openviking-ov-dream': {
    name: 'ov_dream',
    warnings: ['name_kebab_case'],
    agentskills: ['name_allowed_characters'],
  },
  '011-openviking-install-memory': {
    name: 'install-openviking-memory',
    warnings: ['description_max_length'],
    descLength: 1111,
    tags: ['install', 'setup', 'memory', 'openviking', 'rag', 'long-term-memory'],
  },
  '013-composio-21risk-leading-hyphen': {
    name: '-21risk-automation',
    warnings: ['name_leading_hyphen', 'name_kebab_case'],
    agentskills: ['name_hyphens'],
  },
  '014-composio-ahrefs-titlecase': {
    name: 'Ahrefs Automation',
    warnings: ['name_allowed_characters', 'name_kebab_case'],
    strictErrors: ['name_allowed_characters'],
    agentskills: ['name_allowed_characters'],
  },
  '015-vercel-composition-patterns': { name: 'vercel-composition-patterns', descLength: 310 },
  '017-msft-cat-agent-evaluation-designer-crlf': { name: 'agent-evaluation-designer', agentskills: [] },
  '019-kdense-geomaster-crlf': { name: 'geomaster' },
  '021-kdense-bgpt-paper-search': { name: 'bgpt-paper-search', tools: ['Bash'] },
  '022-ptreezh-alienation-snake-bom-crlf': {
    name: 'alienation_analysis',
    warnings: ['name_kebab_case'],
    tags: ['alienation-theory', 'marxist-analysis', 'labor-studies', 'social-phenomena', 'critical-theory'],
    tools: ['node', 'bash', 'read_file', 'write_file'],
  },
  '023-ptreezh-capital-analysis-bom-yamlerr': {
    name: 'capital-analysis',
    warnings: ['yaml_unquoted_colon'],
    at: ['yaml_unquoted_colon', 3, 14],
    tools: ['node', 'bash', 'read_file', 'write_file'],
  },
  '025-cc-official-discord-access': {
    name: 'access',
    tools: ['Read', 'Write', 'Bash(ls *)', 'Bash(mkdir *)'],
  },
  // `tools` is not an allowed-tools spelling: kept as frontmatter only.
  '026-cc-official-automation-recommender': { name: 'claude-automation-recommender', tools: [] },
  '029-sentry-django-access-review': {
    name: 'django-access-review',
    tools: ['Read', 'Grep', 'Glob', 'Bash', 'Task'],
  },
  // '@Injected' inside a flow sequence: unreadable; name and description come before the error.
  '037-hoang-ios-di-yaml-at': {
    name: 'iOS Dependency Injection',
    errors: ['yaml_format'],
    at: ['yaml_format', 8, 16],
  },
  '039-davila7-devil-long': { name: 'devil', warnings: ['description_max_length'], descLength: 1177 },
  '041-davila7-ray-data-yaml-flow': {
    name: 'ray-data',
    errors: ['yaml_format'],
    at: ['yaml_format', 8, 19],
  },
  '042-davila7-mermaid-extra-keys': { name: 'mermaid-diagram-specialist', descLength: 108 },
  '043-ecc-repo-scan-mixed-eol': { name: 'repo-scan' },
  '045-ecc-ja-swiftui-yamlerr': {
    name: 'swiftui-patterns',
    warnings: ['yaml_reserved_indicator'],
    at: ['yaml_reserved_indicator', 3, 14],
  },
  '046-pi-fixture-invalid-yaml': { name: 'invalid-yaml', errors: ['yaml_format'] },
  '047-pi-fixture-long-name': {
    name: 'this-is-a-very-long-skill-name-that-exceeds-the-sixty-four-character-limit-set-by-the-standard',
    warnings: ['name_max_length'],
    strictErrors: ['name_max_length'],
    agentskills: ['name_max_length'],
  },
  '049-pi-fixture-multiline-description': { name: 'multiline-description', descLength: 83 },
  '050-smallclaw-orchestrator-bom': {
    name: 'Multi-Agent Orchestrator',
    warnings: ['name_allowed_characters', 'name_kebab_case'],
  },
  '051-aigc-director-bom-zh': { name: 'aigc-director' },
  '053-deepchat-settings-allowedtools': {
    name: 'deepchat-settings',
    warnings: ['allowed_tools_spelling'],
    tools: [
      'deepchat_settings_toggle',
      'deepchat_settings_set_language',
      'deepchat_settings_set_theme',
      'deepchat_settings_set_font_size',
      'deepchat_settings_open',
    ],
  },
  '054-qwen-review-allowedtools': {
    name: 'review',
    warnings: ['allowed_tools_spelling'],
    tools: ['task', 'run_shell_command', 'grep_search', 'read_file', 'write_file', 'edit', 'glob'],
  },
  '055-matteo-dependency-analyzer-allowed-underscore': {
    name: 'dependency-analyzer',
    tools: ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob'],
  },
  '057-drclaw-inno-grant-allowed-underscore-list': {
    name: 'inno-grant-proposal',
    tools: ['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'WebFetch', 'WebSearch'],
  },
  '058-drclaw-autoresearch-yamlerr': { name: 'autoresearch', warnings: ['yaml_unquoted_colon'] },
  // "1025" in the manifest counts the quotes: the value is 1023 code points, under the limit.
  '059-nemoclaw-user-overview-1025': { name: 'nemoclaw-user-overview', descLength: 1023, agentskills: [] },
  '061-variant-design-long-yamlerr': {
    name: 'variant-design',
    warnings: ['yaml_unquoted_colon', 'description_max_length'],
    descLength: 1203,
  },
  '062-brewcode-agents-all-cc-keys': {
    name: 'agents',
    tools: ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'Agent', 'AskUserQuestion', 'Skill'],
  },
  '065-multiuserclaw-taskflow-no-opening': {
    fm: false,
    name: null,
    errors: ['yaml_format'],
    says: 'opening "---" on line 1 is missing',
  },
  '066-openclaw-taskflow-inbox-triage': { name: 'taskflow-inbox-triage' },
  '067-wow-api-fenced': { fm: false, name: null, errors: ['yaml_format'], at: ['yaml_format', 2, 1] },
  '069-fastmcp-sample-code-review-noname': {
    name: null,
    errors: ['name_required'],
    tags: ['code', 'review', 'quality'],
  },
  '070-cc-audit-prompt-injection-alias': {
    name: 'prompt-injection-skill',
    errors: ['yaml_format'],
    at: ['yaml_format', 4, 16],
  },
  '071-cc-audit-complex-hooks': { name: 'complex-skill', tools: ['Read', 'Write', 'Bash'] },
  '074-gstack-plan-ceo-review': {
    name: 'plan-ceo-review',
    tools: ['Read', 'Grep', 'Glob', 'Bash', 'AskUserQuestion', 'WebSearch'],
    descLength: 38,
  },
  '075-agent-zero-manage-plugin-yamlerr': { name: 'a0-manage-plugin', warnings: ['yaml_unquoted_colon'] },
  '078-composio-create-cli-cursor-keys': { name: null, errors: ['name_required'] },
  '079-clawvault-fixture-frontmatter-only': { name: null, errors: ['name_required', 'description_required'] },
  '081-magic-custom-skill-empty-file': { fm: false, name: null, errors: ['yaml_format'], says: 'empty' },
  '083-storybook-canary-at-include': { fm: false, name: null, errors: ['yaml_format'] },
  '085-vscode-context7-long': {
    name: 'project-setup-info-context7',
    warnings: ['description_max_length'],
    descLength: 1461,
  },
  '086-link-jumper-zh': { name: 'link-jumper', agentskills: ['compatibility_invalid'] },
  '089-cc-plugin-dev-skill-development': {
    name: 'Skill Development',
    warnings: ['name_allowed_characters', 'name_kebab_case'],
  },
  '090-j4flmao-caching-titlecase': {
    name: 'Caching Strategies',
    warnings: ['name_allowed_characters', 'name_kebab_case'],
  },
  '091-gamaroff-develop-story-yamlerr': { name: 'develop-story', warnings: ['yaml_unquoted_colon'] },
  '093-anthropics-pr-happy-camp-four-dash': {
    fm: false,
    name: null,
    errors: ['yaml_format'],
    says: 'line 1 is "----"',
  },
  '094-anthropics-pr-grant-writing-unclosed': {
    fm: false,
    name: null,
    errors: ['yaml_format'],
    says: 'Line 5 has an indented "---"',
  },
  '095-link-jumper-invalid-utf8': { name: 'link-jumper' },
};

describeCorpus('pinned verdicts of the odd corpus files', () => {
  it('pins only files that exist', () => {
    for (const dir of Object.keys(pinned)) expect(skillDirs).toContain(dir);
  });

  it.each(Object.entries(pinned))('%s', (dir, want) => {
    const text = readSkill(dir);
    const { skill, hasFrontmatter } = parseSkillMd(text);
    expect(hasFrontmatter).toBe(want.fm ?? true);
    expect(skill.name).toBe(want.name);
    if (want.tags) expect(skill.tags).toEqual(want.tags);
    if (want.tools) expect(skill.allowedTools).toEqual(want.tools);
    if (want.descLength !== undefined)
      expect([...(skill.description ?? '').trim()].length).toBe(want.descLength);

    const result = validateSkill(text);
    expect(result.errors.map((i) => i.rule)).toEqual(want.errors ?? []);
    expect(result.warnings.map((i) => i.rule)).toEqual(want.warnings ?? []);
    expect(result.valid).toBe((want.errors ?? []).length === 0);
    const first = result.errors[0] ?? result.warnings[0];
    if (want.at) expect(first).toMatchObject({ rule: want.at[0], line: want.at[1], column: want.at[2] });
    if (want.says) expect(first?.message).toContain(want.says);

    if (want.strictErrors) {
      expect(validateSkill(text, { strict: true }).errors.map((i) => i.rule)).toEqual(want.strictErrors);
    }
    if (want.agentskills) {
      const errors = validateSkill(text, { profile: 'agentskills' }).errors.map((i) => i.rule);
      expect(errors).toEqual(want.agentskills);
    }
  });

  it('reports name_matches_directory when the folder is the corpus id, and not when it is the name', () => {
    const text = readSkill('005-anthropics-template');
    const mismatch = validateSkill(text, { dirName: '005-anthropics-template' });
    expect(mismatch.warnings.map((i) => i.rule)).toEqual(['name_matches_directory']);
    expect(mismatch.warnings[0]).toMatchObject({ field: 'name', line: 2, fix: '005-anthropics-template' });
    expect(validateSkill(text, { dirName: '005-anthropics-template', strict: true }).valid).toBe(false);
    expect(validateSkill(text, { dirName: 'template-skill', strict: true }).valid).toBe(true);
  });

  it('reports body_max_lines only in strict mode (001 has a 570-line body)', () => {
    const text = readSkill('001-anthropics-claude-api');
    expect(validateSkill(text).body_lines).toBe(570);
    expect(validateSkill(text).warnings.map((i) => i.rule)).not.toContain('body_max_lines');
    expect(validateSkill(text, { strict: true }).warnings.map((i) => i.rule)).toEqual(['body_max_lines']);
  });
});

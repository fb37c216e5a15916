import { describe, expect, test } from 'vitest';
import { agentNameWarning } from '../../src/internal/agent-names.js';
import type { InstallScope } from '../../src/internal/agents.js';

const project: InstallScope = { kind: 'project', root: '/projects/app' };
const user: InstallScope = { kind: 'user', home: '/home/ada', configHome: '/home/ada/.config' };
const skillMd = (name: string) =>
  new TextEncoder().encode(
    `---\nname: ${name}\ndescription: A skill to check the naming rules against\n---\n\n# Body\n`,
  );

describe('agentNameWarning', () => {
  test.each([
    ['.claude/skills', project, 'pdf-tools'],
    ['.agents/skills', project, 'pdf-tools'],
    ['~/.config/opencode/skills', user, 'release-notes-2'],
    ['vendor/skills', project, 'PDF_Tools'], // a folder no agent reads: nothing to say
  ])('%s: %s → no warning', (folder, scope, name) => {
    expect(agentNameWarning(folder, scope, name, skillMd(name))).toBeNull();
  });

  test('an uppercase name: Claude Code (ASCII rule) and the Agent Skills readers, one clause each', () => {
    const claude = agentNameWarning('.claude/skills', project, 'PDF_Tools', skillMd('PDF_Tools'));
    expect(claude).toMatch(/^Claude Code: "name" "PDF_Tools" may contain only lowercase letters a–z/);
    expect(claude).toMatch(/\(name_allowed_characters, e\.g\. "pdf-tools"\); the agent may not load it$/);
    const shared = agentNameWarning('~/.agents/skills', user, 'PDF_Tools', skillMd('PDF_Tools'));
    expect(shared).toMatch(/^Codex, Agent Skills \(shared \.agents\/skills\): .*name_allowed_characters/);
    expect(shared).toMatch(/the agents may not load it$/);
  });

  test('user folders are matched as the lock file writes them (~/…, XDG for OpenCode)', () => {
    expect(agentNameWarning('~/.config/opencode/skills', user, 'Notes', skillMd('Notes'))).toMatch(
      /^OpenCode: /,
    );
    expect(agentNameWarning('~/.claude/skills', user, 'Notes', skillMd('Notes'))).toMatch(/^Claude Code: /);
  });

  test('a letter of another script passes the Agent Skills rule but not Claude Code’s', () => {
    expect(agentNameWarning('.gemini/skills', project, 'résumé-writer', skillMd('résumé-writer'))).toBeNull();
    expect(agentNameWarning('.claude/skills', project, 'résumé-writer', skillMd('résumé-writer'))).toMatch(
      /^Claude Code: .*name_allowed_characters/,
    );
  });

  test('a folder named after the slug while SKILL.md keeps another name (name policy slug)', () => {
    const warning = agentNameWarning(
      '.cursor/skills',
      project,
      'elevenlabs-automation',
      skillMd('ElevenLabs Automation'),
    );
    expect(warning).toMatch(/^Cursor: /);
    expect(warning).toContain('name_matches_directory');
    expect(warning).toContain('"elevenlabs-automation"');
  });

  test('double or edge hyphens break the Agent Skills rule', () => {
    expect(agentNameWarning('.windsurf/skills', project, 'pdf--tools', skillMd('pdf--tools'))).toMatch(
      /^Windsurf: .*name_hyphens/,
    );
  });
});

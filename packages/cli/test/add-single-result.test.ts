/**
 * What `add-skill` of one input says beyond the stored result: that it replaced an existing skill,
 * and — for a lone SKILL.md file — which files of its folder stayed behind. Against a real server.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dir, 'cfg'), cwd: dir });

function skill(name: string, extra: Record<string, string> = {}): void {
  const folder = path.join(dir, 'skills', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: A skill for the add-skill result tests\n---\n\nSee template.md.\n`,
  );
  for (const [file, text] of Object.entries(extra)) writeFileSync(path.join(folder, file), text);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-add-result-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data'), runJobs: false });
  client = new AsyncHTTPClient({ url: server.url });
  skill('with-template', { 'template.md': '# Template\n', 'notes.txt': 'notes\n' });
  skill('alone');
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('add-skill of a folder of skill folders', () => {
  it('names on stderr each folder it leaves out and why; stdout and -o json keep their shape', async () => {
    mkdirSync(path.join(dir, 'collection', 'docs', 'img'), { recursive: true });
    writeFileSync(path.join(dir, 'collection', 'docs', 'img', 'logo.txt'), 'not a skill\n');
    mkdirSync(path.join(dir, 'collection', '.claude', 'skills', 'hidden-one'), { recursive: true });
    writeFileSync(
      path.join(dir, 'collection', '.claude', 'skills', 'hidden-one', 'SKILL.md'),
      '---\nname: hidden-one\ndescription: In a hidden folder, not searched\n---\n\nBody.\n',
    );
    for (const name of ['listed-one', 'listed-two']) {
      mkdirSync(path.join(dir, 'collection', name), { recursive: true });
      writeFileSync(
        path.join(dir, 'collection', name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: A skill of the collection folder\n---\n\nBody.\n`,
      );
    }
    // A skill folder linked in from elsewhere (as agents' skills folders often hold them).
    symlinkSync(path.join(dir, 'skills', 'alone'), path.join(dir, 'collection', 'linked-one'));
    const notes =
      'note: skipped collection/.claude/: a hidden folder (its name starts with "."): not searched; give it as an input to add its skills\n' +
      'note: skipped collection/docs/: no SKILL.md in it or its sub-folders: not a skill folder\n' +
      'note: skipped collection/linked-one/: a symbolic link: not followed; give it as an input to add what it leads to\n';
    const table = await cli(['add-skill', 'collection']);
    expect(table.code, table.err).toBe(0);
    expect(table.err).toBe(notes);
    expect(table.out).toMatch(/^2 added, 0 replaced, 0 refused \(2 inputs\)$/m);
    const json = await cli(['add-skill', 'collection', '-o', 'json']);
    expect(json.code, json.err).toBe(0);
    expect(json.err).toBe(notes);
    expect((JSON.parse(json.out) as Array<{ name: string }>).map((r) => r.name)).toEqual([
      'listed-one',
      'listed-two',
    ]);
    // Given as an input, a hidden folder is searched; with no skill outside it, the refusal names it.
    const hidden = await cli(['add-skill', 'collection/.claude']);
    expect(hidden.code, hidden.err).toBe(0);
    expect(hidden.out).toMatch(/^name\s+hidden-one$/m);
    rmSync(path.join(dir, 'collection', 'listed-one'), { recursive: true });
    rmSync(path.join(dir, 'collection', 'listed-two'), { recursive: true });
    const empty = await cli(['add-skill', 'collection']);
    expect(empty.code).toBe(1);
    expect(empty.err).toContain(
      'not searched: collection/.claude/, collection/linked-one/ (give a folder as an input to add its skills)',
    );
  });
});

describe('add-skill of one input', () => {
  it('says when it replaced an existing skill, and not when the skill is new', async () => {
    const first = await cli(['add-skill', 'skills/with-template']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).not.toMatch(/^action/m);
    const again = await cli(['add-skill', 'skills/with-template']);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^action\s+replaced the existing skill of this name$/m);
    expect(again.err).toBe('');
  });

  it('a lone SKILL.md: names the files of its folder that were not uploaded and how to add them', async () => {
    const result = await cli(['add-skill', 'skills/with-template/SKILL.md', '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({
      name: 'with-template',
      auxiliary_files: 0,
      replaced: true,
    });
    expect(result.err).toBe(
      'note: only SKILL.md was uploaded; 2 other entries of its folder (notes.txt, template.md) were not. ' +
        'To store the skill with its auxiliary files, give the folder: skillport add-skill skills/with-template\n',
    );
    const stored = await client.getSkill('with-template', { level: 0 });
    expect((stored.files ?? []).map((f) => f.path).sort()).toEqual(['.abstract.md', 'SKILL.md']);
  });

  it('skills update from a lone SKILL.md gives the same note', async () => {
    const result = await cli(['skills', 'update', 'with-template', 'skills/with-template/SKILL.md']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^action\s+update$/m);
    expect(result.err).toMatch(
      /^note: only SKILL\.md was uploaded; 2 other entries .* skillport skills update with-template skills\/with-template\n$/,
    );
  });

  it('the suggested command works when pasted: a folder with a space is quoted, a "-" name goes after --', async () => {
    const folder = path.join(dir, 'my skills', '-dash-skill');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      '---\nname: -dash-skill\ndescription: A skill in a folder whose path holds a space\n---\n\nBody.\n',
    );
    writeFileSync(path.join(folder, 'notes.md'), 'notes\n');
    const added = await cli(['add-skill', 'my skills/-dash-skill/SKILL.md']);
    expect(added.code, added.err).toBe(0);
    expect(added.err).toMatch(/give the folder: skillport add-skill 'my skills\/-dash-skill'\n$/);
    const updated = await cli(['skills', 'update', '--', '-dash-skill', 'my skills/-dash-skill/SKILL.md']);
    expect(updated.code, updated.err).toBe(0);
    expect(updated.err).toMatch(
      /give the folder: skillport skills update -- -dash-skill 'my skills\/-dash-skill'\n$/,
    );
    // Run as suggested (the shell's quoting undone), it stores the folder with its auxiliary file.
    const again = await cli(['skills', 'update', '--', '-dash-skill', 'my skills/-dash-skill']);
    expect(again.code, again.err).toBe(0);
    const stored = await client.getSkill('-dash-skill', { level: 0 });
    expect((stored.files ?? []).map((f) => f.path)).toContain('notes.md');
  });

  it('a SKILL.md outside the working folder: the folder is named by its absolute path', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'skillport-outside-'));
    try {
      mkdirSync(path.join(outside, 'far-skill'));
      writeFileSync(
        path.join(outside, 'far-skill', 'SKILL.md'),
        '---\nname: far-skill\ndescription: A skill outside the working folder\n---\n\nBody.\n',
      );
      writeFileSync(path.join(outside, 'far-skill', 'notes.md'), 'notes\n');
      const result = await cli(['add-skill', path.join(outside, 'far-skill', 'SKILL.md')]);
      expect(result.code, result.err).toBe(0);
      expect(result.err).toContain(
        `give the folder: skillport add-skill ${path.join(outside, 'far-skill')}\n`,
      );
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('no note for a SKILL.md alone in its folder', async () => {
    const result = await cli(['add-skill', 'skills/alone/SKILL.md']);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toBe('');
  });
});

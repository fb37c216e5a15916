/** The add page's verdict on a name follows the server's name policy (core's one rule). */
import { describe, expect, it } from 'vitest';
import { checkSkill } from '../src/lib/check-skill.js';

const md = (name: string) =>
  `---\nname: ${name}\ndescription: Turns audio into text with speaker labels\n---\n\n# Body\n`;
const text = (name: string) => ({ skillMd: md(name), folderName: null, kind: 'text' as const });

describe('checkSkill under the server name policy', () => {
  it('strict (the default): a name add refuses is an error naming the fix', () => {
    const check = checkSkill(text('ElevenLabs Automation'));
    expect(check.errors.map((e) => e.rule)).toEqual(['name_allowed_characters']);
    expect(check.errors[0]).toMatchObject({ fix: 'elevenlabs-automation', line: 2 });
    expect(check.errors[0]?.message).toContain('Add refuses this name (name policy strict)');
  });

  it('slug: the same name is sent, with a warning naming the stored name', () => {
    const check = checkSkill(text('ElevenLabs Automation'), undefined, 'slug');
    expect(check.errors).toEqual([]);
    expect(check.warnings.find((w) => w.rule === 'name_allowed_characters')?.message).toContain(
      'Add stores the skill as "elevenlabs-automation"',
    );
  });

  it('slug: an update compares the stored name with the skill being updated', () => {
    expect(checkSkill(text('ElevenLabs Automation'), 'elevenlabs-automation', 'slug').errors).toEqual([]);
    const other = checkSkill(text('ElevenLabs Automation'), 'speech-tools', 'slug');
    expect(other.errors.map((e) => e.rule)).toEqual(['name_unchanged']);
    expect(other.errors[0]?.message).toContain('named "elevenlabs-automation"');
  });

  it('slug: a name with no usable slug is still an error', () => {
    expect(checkSkill(text('検索'), undefined, 'slug').errors.map((e) => e.rule)).toEqual([
      'name_allowed_characters',
    ]);
  });
});

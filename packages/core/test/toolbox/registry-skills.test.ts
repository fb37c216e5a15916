import { describe, expect, it } from 'vitest';
import { escapeXml, renderAvailableSkills, toolboxSkillsFromRegistry } from '../../src/index.js';

describe('toolboxSkillsFromRegistry', () => {
  it.each([
    {
      case: 'get result with SKILL.md content',
      item: {
        name: 'my-skill',
        description: 'My custom skill',
        content:
          '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.',
        uri: 'viking://user/alice/skills/my-skill',
      },
      expected: {
        name: 'my-skill',
        description: 'My custom skill',
        body: '\n# My Skill\n\nSkill content here.',
        path: 'viking://user/alice/skills/my-skill',
      },
    },
    {
      case: 'description missing on the item, read from the frontmatter',
      item: { name: 'x', content: '---\nname: x\ndescription: From frontmatter\n---\nBody' },
      expected: { name: 'x', description: 'From frontmatter', body: 'Body' },
    },
    {
      case: 'content without frontmatter is the body',
      item: { name: 'plain', description: 'd', content: '# Plain\n\nJust text' },
      expected: { name: 'plain', description: 'd', body: '# Plain\n\nJust text' },
    },
    {
      case: 'find result without content',
      item: { name: 'search-web', description: 'Search the web', content: null, uri: null },
      expected: { name: 'search-web', description: 'Search the web', body: '# search-web\n\nSearch the web' },
    },
  ])('$case', ({ item, expected }) => {
    expect(toolboxSkillsFromRegistry([item])).toEqual([expected]);
  });

  it('refuses an item without a name', () => {
    expect(() => toolboxSkillsFromRegistry([{ name: 'ok' }, { description: 'x' } as never])).toThrow(
      'registry item 1 has no name',
    );
  });
});

describe('renderAvailableSkills', () => {
  it('renders an empty catalogue', () => {
    expect(renderAvailableSkills([])).toBe('<available_skills>\n</available_skills>');
  });

  it.each([
    { input: `a < b & "c" 'd' > e`, output: 'a &lt; b &amp; &quot;c&quot; &apos;d&apos; &gt; e' },
    { input: 'bell\u0007 and tab\t stay?', output: 'bell and tab\t stay?' },
    { input: 'emoji 🙂 and 中文', output: 'emoji 🙂 and 中文' },
  ])('escapes $input', ({ input, output }) => {
    expect(escapeXml(input)).toBe(output);
    expect(renderAvailableSkills([{ name: input, description: input, location: input }])).toBe(
      `<available_skills>\n  <skill>\n    <name>${output}</name>\n    <description>${output}</description>\n    <location>${output}</location>\n  </skill>\n</available_skills>`,
    );
  });
});

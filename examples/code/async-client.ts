import { readFile } from 'node:fs/promises';
import { AsyncHTTPClient, NotFoundError } from '@skillport/sdk-node';

const client = new AsyncHTTPClient({ url: process.env.SKILLPORT_URL ?? 'http://127.0.0.1:1933' });
await client.initialize();

// A skill folder: zipped (SKILL.md + auxiliary files) and uploaded.
const added = await client.addSkill('examples/skills/release-notes', { wait: true });
console.log(added.uri, added.auxiliary_files); // viking://user/default/skills/release-notes 1

// An MCP tool definition becomes the skill `search-web`.
const tool = JSON.parse(await readFile('examples/mcp/search_web.json', 'utf8'));
await client.addSkill(tool, { wait: true });

const found = await client.findSkills('draft a changelog for the next version', { limit: 3 });
console.log(found.skills.map((s) => s.name)); // [ 'release-notes' ]

const skill = await client.getSkill('release-notes', { level: 2 });
console.log(skill.content?.split('\n')[1]); // name: release-notes

await client.deleteSkill('search-web');
try {
  await client.getSkill('search-web');
} catch (error) {
  if (error instanceof NotFoundError) console.log(error.code, error.status); // NOT_FOUND 404
}
client.close();

import { SyncHTTPClient } from '@skillport/sdk-node/sync';

// The same methods, blocking: for scripts and synchronous plugin hooks.
const client = new SyncHTTPClient({ url: process.env.SKILLPORT_URL ?? 'http://127.0.0.1:1933' });
const { skills } = client.listSkills();
console.log(skills.map((s) => s.name)); // [ 'release-notes' ]
console.log(client.getSkill('release-notes', { level: 0 }).abstract);
client.close();

// The seed templates and the find queries of the server bench (`server.bench.mjs`), shared with the
// in-process find probe (`find-probe.mjs`) so both rank the same queries over the same seed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSkillMd } from '@skillport/core';

/** The 16 queries of the `find` rows, repeated. */
export const QUERIES = [
  'pdf',
  'git commit',
  'docker compose',
  'react component',
  'write tests',
  'security audit',
  'database migration',
  'api documentation',
  'image generation',
  'web scraping',
  'excel spreadsheet',
  'deploy kubernetes',
  'code review',
  'slack message',
  'typescript types',
  'python data analysis',
];

/**
 * Parsed SKILL.md files to copy: the large corpus (`<corpusDir>/skills`) when present, else one
 * synthetic skill per word of {@link QUERIES}. `source` names them (part of the seed cache's key).
 */
export function loadTemplates(corpusDir) {
  const templates = [];
  const skillsDir = path.join(corpusDir, 'skills');
  if (existsSync(skillsDir)) {
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name === 'SKILL.md') {
          const text = readFileSync(full, 'utf8');
          if (!/^name:[^\n]*$/m.test(text) || text.length > 200_000) continue;
          try {
            const { skill } = parseSkillMd(text);
            if (skill.description) templates.push({ text, skill });
          } catch {
            // Not parseable: the corpus keeps some broken files on purpose.
          }
        }
      }
    };
    walk(skillsDir);
  }
  const source = templates.length > 0 ? `${templates.length} SKILL.md of ${corpusDir}` : 'synthetic';
  if (templates.length === 0) {
    for (const q of QUERIES) {
      const text = `---\nname: x\ndescription: Work with ${q} for everyday tasks\n---\n\n# ${q}\n\nUse this skill for ${q}.\n`;
      templates.push({ text, skill: parseSkillMd(text).skill });
    }
  }
  return { templates, source };
}

const STOPWORDS = new Set(
  'the and for with from this that when use using used your you are can into any all its via not will also such than then them they their what which who how about based help helps provides skill skills'.split(
    ' ',
  ),
);

/**
 * Distinct find queries the way an agent phrases a task: the first three content words (letters
 * only, at least three long, no stopwords) of each seed template's description, de-duplicated and
 * shuffled with a fixed seed. The `find … distinct queries` rows cycle through them, so a query
 * comes back only after every other one (and after the server's kept answers have turned over):
 * those rows measure ranking, where QUERIES' 16 repeated queries also measure what is kept.
 */
export function distinctQueries(list) {
  const seen = new Set(QUERIES);
  const out = [];
  for (const { skill } of list) {
    const words = [];
    for (const w of String(skill.description)
      .toLowerCase()
      .split(/[^a-z]+/)) {
      if (w.length >= 3 && !STOPWORDS.has(w) && !words.includes(w)) words.push(w);
      if (words.length === 3) break;
    }
    const query = words.join(' ');
    if (words.length >= 2 && !seen.has(query)) {
      seen.add(query);
      out.push(query);
    }
  }
  let state = 0x2545f491;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.length > 0 ? out : QUERIES;
}

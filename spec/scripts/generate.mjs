#!/usr/bin/env node
// Generates src/generated/openapi.ts from openapi.json with openapi-typescript.
//
//   pnpm --filter @skillport/spec generate            # rewrite src/generated/openapi.ts
//   node spec/scripts/generate.mjs --stdout           # print what would be written (drift check)
//
// SKILLPORT_OPENAPI=<file> reads another spec (used only while drafting against API-CONTRACT.md).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const input = process.env.SKILLPORT_OPENAPI ?? path.join(specDir, 'openapi.json');
const output = path.join(specDir, 'src/generated/openapi.ts');
const sourceLabel = process.env.SKILLPORT_OPENAPI ? 'a draft of spec/openapi.json' : 'spec/openapi.json';

/** @returns {Promise<string>} the TypeScript text generated from the spec. */
export async function generate() {
  let text;
  try {
    text = await readFile(input, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read the OpenAPI document ${path.relative(process.cwd(), input)}: ${error.message}`,
    );
  }
  const ast = await openapiTS(JSON.parse(text), { alphabetize: false, exportType: false });
  const header = [
    '// Generated file: do not edit by hand.',
    `// Source: ${sourceLabel} (the Skillport HTTP API, built from the server's route schemas).`,
    '// Regenerate with: pnpm --filter @skillport/spec generate',
    '',
  ].join('\n');
  return `${header}\n${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await generate();
  if (process.argv.includes('--stdout')) process.stdout.write(text);
  else {
    await writeFile(output, text);
    process.stdout.write(`wrote ${path.relative(process.cwd(), output)}\n`);
  }
}

import { describe, expect, it } from 'vitest';
import { mediaTypeFromName, skillFileMediaType } from '../src/internal/media-type.js';

const text = (s: string) => new TextEncoder().encode(s);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const LATIN1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]); // "café" in Latin-1: not UTF-8

describe('mediaTypeFromName', () => {
  it.each([
    ['SKILL.md', 'text/markdown'],
    ['references/API.MD', 'text/markdown'],
    ['scripts/run.py', 'text/x-python'],
    ['src/index.ts', 'text/x-typescript'], // the registry says video/mp2t
    ['src/main.rs', 'text/x-rust'], // the registry says an XML type
    ['scripts/setup.bat', 'text/x-msdos-batch'], // the registry says an executable download
    ['scripts/run.sh', 'text/x-shellscript'],
    ['data/schema.json', 'application/json'],
    ['config.yaml', 'text/yaml'],
    ['assets/logo.svg', 'image/svg+xml'],
    ['assets/logo.png', 'image/png'],
    ['docs/guide.pdf', 'application/pdf'],
    ['model.bin', 'application/octet-stream'],
    ['LICENSE', null],
    ['.env', null],
    ['notes.', null],
    ['archive.unknownext', null],
  ])('%s → %s', (path, type) => {
    expect(mediaTypeFromName(path)).toBe(type);
  });
});

describe('skillFileMediaType', () => {
  it.each([
    ['LICENSE', text('MIT License\n'), 'text/plain', true],
    ['Makefile', text('all:\n\techo hi\n'), 'text/plain', true],
    ['blob', PNG, 'application/octet-stream', false],
    ['notes.txt', LATIN1, 'application/octet-stream', false],
    ['notes.txt', text('café'), 'text/plain', true],
    ['has-nul.md', text('a\u0000b'), 'application/octet-stream', false],
    ['assets/logo.png', PNG, 'image/png', false],
    ['assets/logo.svg', text('<svg/>'), 'image/svg+xml', true],
    ['scripts/run.py', text('print("hi")\n'), 'text/x-python', true],
    ['empty.md', new Uint8Array(0), 'text/markdown', true],
  ])('%s with its bytes → %s (text %s)', (path, content, type, isText) => {
    expect(skillFileMediaType(path, content)).toEqual({ type, text: isText });
  });
});

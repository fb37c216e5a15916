import { describe, expect, it } from 'vitest';
import { splitAllowedTools, splitTags } from '../../src/index.js';

describe('splitAllowedTools', () => {
  it.each([
    ['Bash(git add:*) Read, Write', ['Bash(git add:*)', 'Read', 'Write']],
    ['Read,Grep , Glob', ['Read', 'Grep', 'Glob']],
    ['Read\tWrite\nEdit', ['Read', 'Write', 'Edit']],
    ['Bash(npm run test, lint) Read', ['Bash(npm run test, lint)', 'Read']],
    ['Bash(echo (a, b)) Read', ['Bash(echo (a, b))', 'Read']],
    ['Bash(unclosed, rest of it', ['Bash(unclosed, rest of it']],
    ['Read) Write', ['Read)', 'Write']],
    ['  ,, ', []],
    ['', []],
    ['mcp__github__create_issue', ['mcp__github__create_issue']],
  ])('%j', (input, expected) => {
    expect(splitAllowedTools(input)).toEqual(expected);
  });
});

describe('splitTags', () => {
  it.each([
    ['pdf, reports', ['pdf', 'reports']],
    ['machine learning,nlp', ['machine learning', 'nlp']],
    [' a ,, b ,', ['a', 'b']],
    ['', []],
    ['single', ['single']],
  ])('%j', (input, expected) => {
    expect(splitTags(input)).toEqual(expected);
  });
});

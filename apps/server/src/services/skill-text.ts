/**
 * Byte-level checks of SKILL.md text: size, UTF-8 validity and NUL bytes, each with a located error.
 */
import { findInvalidUtf8, SkillportError } from '@skillport/core';
import { LIMIT_ENV } from '../config.js';

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const BYTE_ORDER_MARKS = { 'UTF-16LE': 'FF FE', 'UTF-16BE': 'FE FF' } as const;

function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

/**
 * Decodes SKILL.md bytes after checking them.
 *
 * @param bytes - the SKILL.md as uploaded
 * @param maxBytes - size limit (`maxSkillMdBytes`)
 * @returns the text (a leading BOM kept; the parser handles it)
 * @throws SkillportError `PAYLOAD_TOO_LARGE` over the limit; `INVALID_ARGUMENT` for invalid UTF-8
 *   (`details.offset`) or a NUL byte (`details.line`, `details.column`)
 */
export function decodeSkillMd(bytes: Uint8Array, maxBytes: number): string {
  checkSkillMdSize(bytes.length, maxBytes);
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    // The fatal decoder refused the bytes, so there is a first ill-formed sequence.
    const bad = findInvalidUtf8(bytes) ?? { offset: 0, line: 1, column: 1, encoding: null };
    const { offset, line, column, encoding } = bad;
    const at = `line ${line}, column ${column} (byte offset ${offset})`;
    throw new SkillportError(
      'INVALID_ARGUMENT',
      encoding === null
        ? `SKILL.md is not valid UTF-8: first bad byte at ${at}; save the file as UTF-8`
        : `SKILL.md is ${encoding} (it starts with the byte order mark ${BYTE_ORDER_MARKS[encoding]}), not UTF-8: save the file as UTF-8 (first bad byte at ${at})`,
      {
        details: {
          field: 'SKILL.md',
          reason: 'invalid_utf8',
          offset,
          line,
          column,
          ...(encoding !== null ? { encoding } : {}),
        },
      },
    );
  }
  checkNoNul(text);
  return text;
}

/** Refuses a SKILL.md larger than the limit (413). */
export function checkSkillMdSize(size: number, maxBytes: number): void {
  if (size > maxBytes) {
    throw new SkillportError(
      'PAYLOAD_TOO_LARGE',
      `SKILL.md is ${size} bytes; the limit is ${maxBytes} bytes (${LIMIT_ENV.maxSkillMdBytes}): move long reference text into auxiliary files of the skill folder`,
      {
        details: { field: 'SKILL.md', size, limit: maxBytes },
      },
    );
  }
}

/** Refuses text containing a NUL character, naming its line and column (400). */
export function checkNoNul(text: string): void {
  const index = text.indexOf('\u0000');
  if (index >= 0) {
    const { line, column } = lineColumn(text, index);
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `SKILL.md contains a NUL character at line ${line}, column ${column}`,
      {
        details: { field: 'SKILL.md', reason: 'nul_byte', line, column },
      },
    );
  }
}

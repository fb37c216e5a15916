import { describe, expect, it } from 'vitest';
import { clipCodePoints } from '../../src/levels/clip-code-points.js';

/** The definition: split into code points, keep `max - 1`, trim, mark the cut. */
function reference(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

describe('clipCodePoints', () => {
  it('keeps text of at most max code points, cuts longer text at max - 1 with …', () => {
    expect(clipCodePoints('abc', 3)).toBe('abc');
    expect(clipCodePoints('abcd', 3)).toBe('ab…');
    expect(clipCodePoints('ab  cd', 4)).toBe('ab…');
    expect(clipCodePoints('😀😀😀', 3)).toBe('😀😀😀'); // 6 UTF-16 units, 3 code points
    expect(clipCodePoints('😀😀😀😀', 3)).toBe('😀😀…');
    expect(clipCodePoints('a\ud800b\udc00c', 4)).toBe('a\ud800b…'); // lone surrogates count one each
    expect(clipCodePoints('abcd', 1)).toBe('…');
  });

  it('gives exactly what splitting into code points gives, on random text', () => {
    const alphabet = ['a', ' ', '\t', 'é', '中', '😀', '\ud800', '\udc00', '\n', 'ﬀ'];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let n = 0; n < 5000; n++) {
      const length = Math.floor(random() * 40);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const max = 1 + Math.floor(random() * 30);
      expect(clipCodePoints(text, max), JSON.stringify([text, max])).toBe(reference(text, max));
    }
  });

  it('reads no further than the cut on a long line', () => {
    // A string whose characters past the cut throw when read: the clip must never reach them.
    const line = 'x'.repeat(1_000_000);
    let reads = 0;
    const counting = new Proxy(new String(line), {
      get(target, key) {
        if (key === 'charCodeAt') {
          return (i: number) => {
            reads += 1;
            return line.charCodeAt(i);
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(line) : value;
      },
    }) as unknown as string;
    expect(clipCodePoints(counting, 300)).toBe(`${'x'.repeat(299)}…`);
    expect(reads).toBeLessThanOrEqual(301);
  });
});

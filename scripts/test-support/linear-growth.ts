/**
 * Test support: checks that a function's cost grows linearly with the size of its input, by
 * comparing the best time per call at sizes n and 16n (a linear cost grows ×16, a quadratic one
 * ×256; the default bound, ×64, leaves a factor of 4 either way). Time is the process's CPU time,
 * which other processes on a busy machine do not inflate, and the best of several trials is used; a rung over the bound is measured again before
 * it counts, so one slow moment (a GC pause, another process) does not fail a test.
 */

/** How one rung of the ladder measured. */
export interface GrowthRung {
  /** Input size (whatever unit the builder takes) of the smaller input. */
  size: number;
  /** Best CPU milliseconds per call at `size` and at `size * 16`. */
  small: number;
  large: number;
  /** `large / small`. */
  ratio: number;
}

/** Options of {@link measureLinearGrowth}. */
export interface GrowthOptions {
  /** Smallest size measured (default 4096). */
  from?: number;
  /** Largest size measured (inclusive; default 1 MiB). */
  to?: number;
  /** Bound on the ratio between sizes n and 16n (default 64: linear is 16, quadratic 256). */
  maxRatio?: number;
}

/** CPU time of this process in ms: unlike wall time, other processes on a busy machine add none. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Best CPU time per call over `trials` trials of `reps` calls (fewer trials once 2 s are spent). */
function bestPerCall(fn: () => unknown, reps: number, trials: number): number {
  let best = Number.POSITIVE_INFINITY;
  const begin = performance.now();
  for (let t = 0; t < trials && (t === 0 || performance.now() - begin < 2000); t++) {
    const start = cpuMs();
    for (let r = 0; r < reps; r++) fn();
    best = Math.min(best, (cpuMs() - start) / reps);
  }
  return best;
}

/** Repetitions that make one trial at this input last about `targetMs` (at least one). */
function calibrate(fn: () => unknown, targetMs: number): number {
  const start = cpuMs();
  fn();
  const once = Math.max(cpuMs() - start, 0.001);
  return Math.max(1, Math.min(10_000, Math.ceil(targetMs / once)));
}

/**
 * Measures `run(build(n))` on a ladder of sizes n, 16n, 256n, … from `from` to `to` and returns the
 * first rung whose growth exceeds `maxRatio` (after two re-measurements), or null when every rung
 * grew within the bound. The inputs are built outside the timed part.
 *
 * @param run - the function under test (its result is ignored)
 * @param build - makes the input of a given size
 * @returns the offending rung, or null
 */
export function findSuperLinearRung<T>(
  run: (input: T) => unknown,
  build: (size: number) => T,
  options: GrowthOptions = {},
): GrowthRung | null {
  const from = options.from ?? 4096;
  const to = options.to ?? 1024 * 1024;
  const maxRatio = options.maxRatio ?? 64;
  for (let size = from; size * 16 <= to; size *= 16) {
    const smallInput = build(size);
    const largeInput = build(size * 16);
    let rung: GrowthRung | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const small = bestPerCall(
        () => run(smallInput),
        calibrate(() => run(smallInput), 5),
        7,
      );
      const large = bestPerCall(
        () => run(largeInput),
        calibrate(() => run(largeInput), 5),
        5,
      );
      const ratio = large / Math.max(small, 1e-6);
      if (ratio <= maxRatio) {
        rung = null;
        break;
      }
      rung = { size, small, large, ratio };
      // A super-linear function at this size is already slow: no need to insist.
      if (large > 2000) break;
    }
    if (rung !== null) return rung;
  }
  return null;
}

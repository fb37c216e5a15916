/**
 * Pacing of the SQLite per-term lists' upkeep (`search/term-lists.ts`) on the database thread: how
 * long the thread rests after a bounded step before the next, so reads and writes queued behind a
 * step run in between.
 *
 * - While requests come (a store call arrived within {@link TERM_LIST_IDLE_MS}, or one is still
 *   waiting for its answer), the upkeep takes at most {@link TERM_LIST_DUTY} of the thread: after a
 *   step of cost c the next waits c × (1 / duty − 1).
 * - While no request came for {@link TERM_LIST_IDLE_MS} and none waits, steps run back to back
 *   ({@link TERM_LIST_IDLE_DUTY}): a request arriving then waits for at most the step running (a few
 *   ms), and the next step waits behind it, so the duty is back to the first rule from then on.
 *
 * A step's cost is its work, not its wall time: the step's work estimate (µs, see `COST` in
 * `term-lists.ts`) priced at the speed of this machine's undisturbed steps (the 25th percentile of
 * wall ms per estimated µs over the last {@link SPEED_WINDOW} steps). A step whose wall time another
 * thread stretched (the WAL checkpointer copying and syncing pages, a lock wait) rests as long as
 * one of the same work that was not stretched; the rest is never shorter than the step's own wall
 * time, so even then the upkeep takes at most half of the thread.
 */

/** Share of the database thread the upkeep may take while requests come. */
export const TERM_LIST_DUTY = 0.2;
/** Share of the database thread the upkeep may take while it is idle (1: no rest between steps). */
export const TERM_LIST_IDLE_DUTY = 1;
/** Time without a store call after which the database thread counts as idle, ms. */
export const TERM_LIST_IDLE_MS = 100;
/** Steps whose speed (wall ms per estimated µs) prices the next steps' work. */
const SPEED_WINDOW = 64;
/** Steps measured before their speed is used (before, a step's cost is its wall time). */
const SPEED_MIN_STEPS = 8;
/** Upper bound of the upkeep's share of the thread's wall time while requests come (see above). */
const WALL_DUTY_CAP = 0.5;

/**
 * Counts of the store calls of a threaded SQLite store, in shared memory: the calling thread counts
 * each call as it is made and settled, the database thread reads them (its own upkeep's calls are
 * not counted). Two int32 slots: calls made (wrapping), calls waiting for their answer.
 */
export class StoreCallActivity {
  /** The shared slots: [0] calls made (wrapping), [1] calls in flight. */
  readonly buffer: SharedArrayBuffer;
  private readonly slots: Int32Array;

  /** @param buffer - the slots of another thread's instance (default: new, zeroed slots) */
  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.buffer = buffer;
    this.slots = new Int32Array(buffer, 0, 2);
  }

  /** A call made that is answered at once (it never waits on the database thread). */
  touch(): void {
    Atomics.add(this.slots, 0, 1);
  }

  /** A call made; {@link end} once it is settled. */
  begin(): void {
    Atomics.add(this.slots, 0, 1);
    Atomics.add(this.slots, 1, 1);
  }

  /** A call begun with {@link begin} was settled (answered or failed). */
  end(): void {
    Atomics.sub(this.slots, 1, 1);
  }

  /** Calls made so far (wraps at 2³¹; compare for equality only). */
  made(): number {
    return Atomics.load(this.slots, 0);
  }

  /** Calls made and not settled yet. */
  inFlight(): number {
    return Atomics.load(this.slots, 1);
  }
}

/** Counts of a {@link TermListPacer}'s steps, for tests and diagnostics. */
export interface TermListPacingCounts {
  /** Steps started while the database thread was idle (no rest before them). */
  idle: number;
  /** Steps started while requests came (after a rest of their share). */
  paced: number;
}

/** The rest between the per-term list upkeep's steps (see this module's comment). */
export class TermListPacer {
  /** Steps started so far, by the thread's state at their start. */
  readonly counts: TermListPacingCounts = { idle: 0, paced: 0 };
  private seenMade = Number.NaN;
  private lastActiveAt: number;
  /** When the last step ended (ms of `now`) and its cost, ms; null before the first step. */
  private last: { endedAt: number; wallMs: number; costMs: number } | null = null;
  private readonly speeds = new Float64Array(SPEED_WINDOW);
  private measured = 0;

  /**
   * @param activity - the store calls of the threaded store; undefined (a store used in-process,
   *   on the thread that serves requests): the thread never counts as idle
   * @param now - clock in ms (default `performance.now`); tests pass their own
   */
  constructor(
    private readonly activity: StoreCallActivity | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastActiveAt = now();
  }

  /**
   * Whether the database thread is idle now: no store call made within {@link TERM_LIST_IDLE_MS}
   * (as far as this pacer looked: it looks at each step) and none waiting for its answer.
   */
  idle(): boolean {
    const activity = this.activity;
    const at = this.now();
    if (activity === undefined) {
      this.lastActiveAt = at;
      return false;
    }
    const made = activity.made();
    if (made !== this.seenMade || activity.inFlight() > 0) {
      this.seenMade = made;
      this.lastActiveAt = at;
      return false;
    }
    return at - this.lastActiveAt >= TERM_LIST_IDLE_MS;
  }

  /**
   * How long to rest before the next step, ms (0: start it now), and counts the step as idle or
   * paced: call right before each step.
   */
  restBeforeStep(): number {
    const idle = this.idle();
    const last = this.last;
    const duty = idle ? TERM_LIST_IDLE_DUTY : TERM_LIST_DUTY;
    let rest = 0;
    if (last !== null && duty < 1) {
      const share = Math.max(last.costMs * (1 / duty - 1), last.wallMs * (1 / WALL_DUTY_CAP - 1));
      rest = Math.max(0, last.endedAt + share - this.now());
    }
    if (idle) this.counts.idle++;
    else this.counts.paced++;
    return rest;
  }

  /**
   * Records a step that ran.
   *
   * @param workUs - its work estimate, µs (`TermListStepReport.work`)
   * @param wallMs - its wall time, ms (from its transaction's start to its commit)
   */
  stepped(workUs: number, wallMs: number): void {
    let costMs = wallMs;
    if (workUs > 0) {
      this.speeds[this.measured % SPEED_WINDOW] = wallMs / workUs;
      this.measured++;
      if (this.measured >= SPEED_MIN_STEPS) {
        const speeds = this.speeds.slice(0, Math.min(this.measured, SPEED_WINDOW)).sort();
        const speed = speeds[Math.floor((speeds.length - 1) / 4)] as number;
        costMs = Math.min(wallMs, workUs * speed);
      }
    }
    this.last = { endedAt: this.now(), wallMs, costMs };
  }
}

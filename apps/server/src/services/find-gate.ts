/**
 * Per-caller fairness for `find`, the most expensive read (a distinct query ranks every match of its
 * words: milliseconds of CPU at 10,000 skills, tens at 100,000). Without it one API key sending
 * finds on many connections filled the search threads' queue and every other caller's find waited
 * behind all of them. Each caller may have a few finds running; more wait in a short line of their
 * own (served in arrival order as the caller's running finds end); past that a find is refused with
 * 429 `RESOURCE_EXHAUSTED` and `Retry-After`, so a caller can never have more than its share queued
 * in front of others. In memory of one server process.
 */
import { SkillportError } from '@skillport/core/base';
import type { Identity } from '../store/types.js';

/** Finds of one caller that may wait for a running slot, per running slot. */
export const FIND_QUEUE_PER_SLOT = 64;

/** The setting behind the limit, named in refusals. */
export const FIND_LIMIT_SETTING = 'SKILLPORT_MAX_FINDS_PER_KEY';

interface Lane {
  running: number;
  waiting: Array<() => void>;
}

/** Runs finds at most `perCaller` at a time per caller; see the module comment. */
export interface FindGate {
  /**
   * Runs `work` when the caller has a free slot (at once, or after its earlier finds).
   *
   * @throws SkillportError 429 `RESOURCE_EXHAUSTED` (`details {reason: 'finds_in_flight', limit,
   *   queue, retry_after, setting}`) when the caller already has its slots busy and its line full
   */
  run<T>(identity: Identity, work: () => Promise<T>): Promise<T>;
}

/** The key a caller's finds are counted under: its API key, or its user in dev mode. */
function callerKey(identity: Identity): string {
  return identity.keyId ?? `${identity.accountId}/${identity.userId}`;
}

/**
 * A gate allowing `perCaller` running finds per caller and `perCaller × 64` waiting.
 *
 * @param perCaller - running finds per caller (`SKILLPORT_MAX_FINDS_PER_KEY`); 0 = no limit
 */
export function createFindGate(perCaller: number): FindGate {
  const lanes = new Map<string, Lane>();
  const queueLimit = perCaller * FIND_QUEUE_PER_SLOT;
  return {
    async run(identity, work) {
      if (perCaller <= 0) return work();
      const key = callerKey(identity);
      let lane = lanes.get(key);
      if (lane === undefined) {
        lane = { running: 0, waiting: [] };
        lanes.set(key, lane);
      }
      if (lane.running >= perCaller) {
        if (lane.waiting.length >= queueLimit) {
          throw new SkillportError(
            'RESOURCE_EXHAUSTED',
            `Too many finds at once with this key: ${perCaller} running and ${queueLimit} waiting is the most (${FIND_LIMIT_SETTING}); retry in 1 s`,
            {
              details: {
                reason: 'finds_in_flight',
                limit: perCaller,
                queue: queueLimit,
                retry_after: 1,
                setting: FIND_LIMIT_SETTING,
              },
            },
          );
        }
        // The slot is handed over by the find that ends (`running` stays counted for it).
        await new Promise<void>((resolve) => lane?.waiting.push(resolve));
      } else {
        lane.running++;
      }
      try {
        return await work();
      } finally {
        const next = lane.waiting.shift();
        if (next !== undefined) next();
        else if (--lane.running === 0) lanes.delete(key);
      }
    },
  };
}

/**
 * The per-request variables every middleware and route of the app shares.
 */
import type { Identity } from '../store/types.js';

/** What a request asked for in its `telemetry` field, and the operation it performs. */
export interface TelemetryState {
  operation: string;
  summary: boolean;
}

/** Hono environment of the Skillport app. */
export interface AppEnv {
  Variables: {
    /** Echoed `X-Request-Id`, or a generated UUID. */
    requestId: string;
    /** The client's address (through trusted proxies, see `http/client-address.ts`). */
    clientAddress: string;
    /** `performance.now()` when the request arrived. */
    startedAt: number;
    /** The caller; set by the auth middleware on `/api/v1/*`. */
    identity: Identity;
    /**
     * The store's change token read when the request was authenticated (`Store.changeToken`), before
     * any read of the store; set with `identity`.
     */
    changeToken: string;
    /** Set when the request body asked for telemetry. */
    telemetry: TelemetryState | null;
  };
}

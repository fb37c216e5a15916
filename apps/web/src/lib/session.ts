/**
 * The API client of the page and the API key it uses. The key is kept for this tab only
 * (sessionStorage: gone when the tab closes, never shared with other tabs or sent anywhere but the
 * API). Every request goes through `@skillport/sdk-browser`.
 */
import { AsyncHTTPClient } from '@skillport/sdk-browser';
import { createProgressFetch, type UploadProgress } from './upload-fetch.js';

const KEY_STORAGE = 'skillport.apiKey';

/** Base URL of the server: the folder this page was served from (works behind a path prefix). */
export function serverUrl(): string {
  const url = new URL('.', window.location.href);
  url.hash = '';
  url.search = '';
  return url.href.replace(/\/+$/, '');
}

/** The API key of this tab, if one was entered. */
export function storedApiKey(): string | null {
  try {
    return window.sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return memoryKey;
  }
}

let memoryKey: string | null = null;

/** Keeps (or, with null, forgets) the API key for this tab. */
export function storeApiKey(key: string | null): void {
  memoryKey = key;
  try {
    if (key === null) window.sessionStorage.removeItem(KEY_STORAGE);
    else window.sessionStorage.setItem(KEY_STORAGE, key);
  } catch {
    // Storage refused (private mode): the key lives in memory until the page reloads.
  }
}

/** A client for ordinary calls, with the tab's key (or the key given). */
export function createClient(apiKey: string | null = storedApiKey()): AsyncHTTPClient {
  return new AsyncHTTPClient({ url: serverUrl(), ...(apiKey ? { apiKey } : {}), timeout: 30_000 });
}

/** A client whose uploads report progress (through XMLHttpRequest, which fetch cannot do). */
export function createUploadClient(onProgress: (progress: UploadProgress) => void): AsyncHTTPClient {
  const apiKey = storedApiKey();
  return new AsyncHTTPClient({
    url: serverUrl(),
    ...(apiKey ? { apiKey } : {}),
    timeout: 120_000,
    retry: 0,
    fetch: createProgressFetch(onProgress),
  });
}

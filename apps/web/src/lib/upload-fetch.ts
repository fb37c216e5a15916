/**
 * A `fetch` for the SDK client that reports upload progress. `fetch` has no upload progress events
 * in browsers (streamed request bodies need HTTP/2), so requests with a body go through
 * XMLHttpRequest; everything else goes to the real `fetch`.
 */

/** Bytes sent so far of one request body. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * Builds the `fetch` replacement.
 *
 * @param onProgress - called as the body of a request is sent
 */
export function createProgressFetch(onProgress: (progress: UploadProgress) => void): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (request.method === 'GET' || request.method === 'HEAD') return fetch(request);
    const body = await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
      xhr.responseType = 'blob';
      xhr.upload.addEventListener('progress', (event) => {
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : body.size });
      });
      xhr.addEventListener('load', () => {
        const status = xhr.status;
        resolve(
          new Response(NULL_BODY_STATUS.has(status) ? null : (xhr.response as Blob), {
            status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      });
      xhr.addEventListener('error', () => reject(new TypeError('Failed to fetch')));
      xhr.addEventListener('abort', () => reject(new DOMException('The request was aborted', 'AbortError')));
      xhr.addEventListener('timeout', () => reject(new TypeError('Failed to fetch (timeout)')));
      if (request.signal.aborted) {
        reject(new DOMException('The request was aborted', 'AbortError'));
        return;
      }
      request.signal.addEventListener('abort', () => xhr.abort());
      xhr.send(body);
    });
  };
}

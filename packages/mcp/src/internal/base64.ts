/** Base64 of bytes (MCP `blob` and image `data`), without `node:buffer` so the package stays runtime-neutral. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep `String.fromCharCode(...)` under the engines' argument limits.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

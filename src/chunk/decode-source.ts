const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Decodes file bytes as UTF-8 (invalid bytes become U+FFFD) and strips a leading BOM. Never throws. */
export function decodeSource(buf: Buffer | Uint8Array): string {
  return decoder.decode(buf);
}

import { endianness } from 'node:os';

// Blobs are Float32 little-endian. Every platform Node ships for is little-endian; we check once
// instead of paying for a DataView on every vector.
const IS_LITTLE_ENDIAN = endianness() === 'LE';

/** Encodes a vector as a Float32 little-endian blob (a copy, safe to keep). */
export function vectorToBlob(vector: Float32Array): Buffer {
  if (!IS_LITTLE_ENDIAN) {
    const out = Buffer.alloc(vector.length * 4);
    vector.forEach((x, i) => out.writeFloatLE(x, i * 4));
    return out;
  }
  return Buffer.from(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

/**
 * Decodes a Float32 little-endian blob into a fresh, aligned Float32Array (SQLite buffers may sit at
 * any byteOffset). Returns null when the byte length is not a multiple of 4.
 */
export function blobToVector(blob: Uint8Array): Float32Array | null {
  if (blob.byteLength % 4 !== 0) return null;
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  if (IS_LITTLE_ENDIAN) return new Float32Array(copy.buffer);
  const view = new DataView(copy.buffer);
  const out = new Float32Array(blob.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

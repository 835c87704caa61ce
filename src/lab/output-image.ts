import { crc32 } from "node:zlib";
import { fnv1a, mulberry32 } from "./instructions-text.js";
import { randomBytes } from "./output-text.js";

/**
 * `lab output --content image`: a PNG of exactly `bytes` bytes, for MCP image content. A square
 * RGB noise image, as large as fits, stored uncompressed (deflate stored blocks, so the size is known
 * before writing), and a private ancillary `paDd` chunk that takes up the rest: decoders skip it.
 * Pure and deterministic. Sizes below `MIN_PNG_BYTES` cannot be built.
 */
export interface LabImage {
  png: Buffer;
  width: number;
  height: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHUNK = 12;
const IHDR = CHUNK + 13;
const STORED_BLOCK = 65535;

/** A 1×1 image with an empty pad chunk. */
export const MIN_PNG_BYTES = pngSize(1) + CHUNK;

export function labImage(bytes: number): LabImage {
  if (!Number.isInteger(bytes) || bytes < MIN_PNG_BYTES)
    throw new RangeError(`an image needs at least ${MIN_PNG_BYTES} bytes, got ${bytes}`);
  let side = Math.max(1, Math.floor(Math.sqrt(bytes / 3)));
  while (side > 1 && pngSize(side) + CHUNK > bytes) side -= 1;
  const next = mulberry32(fnv1a(`${bytes}|image`));
  const raw = Buffer.alloc(rawSize(side));
  for (let y = 0; y < side; y++) randomBytes(next, side * 3).copy(raw, y * (side * 3 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const padLen = bytes - pngSize(side) - CHUNK;
  const png = Buffer.concat([
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("IDAT", storedZlib(raw)),
    chunk("paDd", Buffer.alloc(padLen, 0x2e)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return { png, width: side, height: side };
}

function rawSize(side: number): number {
  return side * (side * 3 + 1);
}

function zlibSize(raw: number): number {
  return 2 + raw + 5 * Math.max(1, Math.ceil(raw / STORED_BLOCK)) + 4;
}

function pngSize(side: number): number {
  return SIGNATURE.length + IHDR + CHUNK + zlibSize(rawSize(side)) + CHUNK;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(CHUNK + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** zlib framing around deflate stored blocks: the compressed size is the raw size plus fixed overhead. */
function storedZlib(raw: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(raw.length / STORED_BLOCK));
  const out = Buffer.alloc(zlibSize(raw.length));
  out[0] = 0x78;
  out[1] = 0x01;
  let o = 2;
  for (let b = 0; b < blocks; b++) {
    const part = raw.subarray(b * STORED_BLOCK, (b + 1) * STORED_BLOCK);
    out[o] = b === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(part.length, o + 1);
    out.writeUInt16LE(~part.length & 0xffff, o + 3);
    part.copy(out, o + 5);
    o += 5 + part.length;
  }
  out.writeUInt32BE(adler32(raw), o);
  return out;
}

function adler32(buf: Buffer): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < buf.length; i++) {
    a = (a + buf[i]!) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * Reads the first file of a ZIP archive (OpenDART's corpCode.xml download): finds the
 * central directory from its end record, then inflates the stored or deflated entry.
 */
import { inflateRawSync } from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Whether the bytes start like a ZIP archive. */
export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL;
}

/**
 * The content of the archive's first entry.
 *
 * @param bytes The archive.
 * @returns The entry's bytes, or `undefined` when the archive cannot be read.
 */
export function firstZipEntry(bytes: Buffer): Buffer | undefined {
  try {
    let end = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
      if (bytes.readUInt32LE(i) === EOCD) {
        end = i;
        break;
      }
    }
    if (end < 0) return undefined;
    const central = bytes.readUInt32LE(end + 16);
    if (bytes.readUInt32LE(central) !== CENTRAL) return undefined;
    const method = bytes.readUInt16LE(central + 10);
    const size = bytes.readUInt32LE(central + 20);
    const local = bytes.readUInt32LE(central + 42);
    if (bytes.readUInt32LE(local) !== LOCAL) return undefined;
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + size);
    if (method === 0) return data;
    if (method === 8) return inflateRawSync(data, { maxOutputLength: 256 * 1024 * 1024 });
    return undefined;
  } catch {
    return undefined;
  }
}

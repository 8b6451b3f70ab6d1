// A small ZIP writer and reader (deflate via node:zlib, CRC-32 here): enough
// for the SCORM package (package-scorm.mjs) and its tests, with no dependency.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// DOS date and time of 1 Jan 2026, 00:00: a fixed stamp, so the same input gives the same zip.
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;

// The fields a local header and its central directory entry share, from
// "version needed" on: at 4 in a local header, at 6 in a central entry.
function writeShared(header, at, { crc, packed, raw, nameLength }) {
  header.writeUInt16LE(20, at); // version needed: 2.0
  header.writeUInt16LE(0x0800, at + 2); // names are UTF-8
  header.writeUInt16LE(8, at + 4); // deflate
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(crc, at + 10);
  header.writeUInt32LE(packed, at + 14);
  header.writeUInt32LE(raw, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}

/** entries: [{ name, data: Buffer | string }] → the zip file's bytes. */
export function writeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const raw = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
    const packed = deflateRawSync(raw, { level: 9 });
    const nameBytes = Buffer.from(name, 'utf8');
    const shared = { crc: crc32(raw), packed: packed.length, raw: raw.length, nameLength: nameBytes.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeShared(local, 4, shared);
    locals.push(local, nameBytes, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    writeShared(central, 6, shared);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A zip file's bytes → Map(name → Buffer); throws on a damaged file or a bad CRC. */
export function readZip(zip) {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('not a zip file: no end of central directory');
  const count = zip.readUInt16LE(endAt + 10);
  let at = zip.readUInt32LE(endAt + 16);
  const files = new Map();
  for (let k = 0; k < count; k += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('damaged zip: bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const stored = zip.subarray(dataAt, dataAt + size);
    const data = method === 8 ? inflateRawSync(stored) : Buffer.from(stored);
    if (crc32(data) !== crc) throw new Error(`damaged zip: ${name} fails its CRC`);
    files.set(name, data);
    at += 46 + nameLength + extra;
  }
  return files;
}

import { writeFileSync } from 'node:fs';

/**
 * Writes a tiny MaxMind DB file (format 2.0, IPv4, 24-bit records) that maps one IPv4 network to one
 * record, so the GeoIP code is tested on a real .mmdb read by the real reader without shipping or
 * downloading a database. Only the types a City record needs are encoded: maps, strings, unsigned
 * integers and arrays.
 */

type Value = string | number | bigint | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  const extended = type > 7;
  const head = (extended ? 0 : type) << 5;
  const sizeBytes: number[] = [];
  let sizeBits = size;
  if (size >= 29 && size < 285) {
    sizeBits = 29;
    sizeBytes.push(size - 29);
  } else if (size >= 285) {
    throw new Error('value too large for this writer');
  }
  return Buffer.from([head | sizeBits, ...(extended ? [type - 7] : []), ...sizeBytes]);
}

function unsigned(type: number, value: bigint): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

function encode(value: Value, type?: 'uint16' | 'uint32' | 'uint64'): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const code = type === 'uint16' ? 5 : type === 'uint64' ? 9 : 6;
    return unsigned(code, BigInt(value));
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map((v) => encode(v))]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v, UINT_FIELDS[k])])]);
}

const UINT_FIELDS: Record<string, 'uint16' | 'uint32' | 'uint64'> = {
  binary_format_major_version: 'uint16',
  binary_format_minor_version: 'uint16',
  ip_version: 'uint16',
  record_size: 'uint16',
  node_count: 'uint32',
  build_epoch: 'uint64',
};

/** Writes `record` for the IPv4 network `prefix`/`bits` (e.g. '127.0.0.0', 8) to `path`. */
export function writeTinyMmdb(path: string, prefix: string, bits: number, record: Value): void {
  const address = prefix.split('.').reduce((n, part) => (n << 8) | Number(part), 0) >>> 0;
  const nodeCount = bits;
  const data = encode(record);
  // The record that points to the data: node_count + 16 + offset in the data section (0).
  const dataPointer = nodeCount + 16;
  const tree = Buffer.alloc(nodeCount * 6);
  for (let node = 0; node < nodeCount; node += 1) {
    const bit = (address >>> (31 - node)) & 1;
    const onPath = node === nodeCount - 1 ? dataPointer : node + 1;
    const left = bit === 0 ? onPath : nodeCount;
    const right = bit === 1 ? onPath : nodeCount;
    tree.writeUIntBE(left, node * 6, 3);
    tree.writeUIntBE(right, node * 6 + 3, 3);
  }
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_700_000_000,
    database_type: 'GeoLite2-City',
    description: { en: 'Passgate test database' },
    ip_version: 4,
    languages: ['en'],
    node_count: nodeCount,
    record_size: 24,
  });
  const marker = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);
  writeFileSync(path, Buffer.concat([tree, Buffer.alloc(16), data, marker, metadata]));
}

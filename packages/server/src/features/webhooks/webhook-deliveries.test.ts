import { describe, expect, it } from 'vitest';
import {
  webhooksHarness,
  fixture,
  branchPush,
  tagPush,
  deletedPush,
  prOpened,
  prClosed,
  ping,
} from './webhooks.test-helper.js';
import { waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';
import { sign } from './webhook-signature.js';

/** Deliveries from GitHub, GitLab and Bitbucket: signatures, events, runs started, replays. */
describe('webhook deliveries', () => {
  const w = webhooksHarness();
  const { call, create, deliver, github, deliveries, run, runCount } = w;

  it('starts a run from a signed GitHub push, with only the params the pipeline declares', async () => {
    const hook = await create({ type: 'github', event: 'push', branch: 'master' });
    const res = await github(hook, 'push', branchPush);
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json();
    expect(receipt.outcome).toBe('triggered');
    const started = await run(receipt.runId);
    // the run says where it came from: the webhook, the commit, the branch and its author
    expect(started.trigger).toEqual({
      kind: 'webhook',
      id: hook.id,
      by: 'github push',
      commit: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      branch: 'master',
      author: expect.any(String),
    });
    expect(started.params).toEqual({
      'git-url': 'https://github.com/Codertocat/Hello-World.git',
      'git-revision': '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      'git-branch': 'master',
    });
    const { rows } = await deliveries(hook.id);
    expect(rows[0]).toMatchObject({
      outcome: 'triggered',
      statusCode: 201,
      event: 'push',
      runId: receipt.runId,
    });
    expect(rows[0]!.params).toMatchObject({ 'git-author': 'Codertocat' });
    const finished = await waitFor(async () => {
      const r = await run(receipt.runId);
      return ['succeeded', 'failed'].includes(r.status) && r;
    }, 20_000);
    expect(finished.status).toBe('succeeded');
    const logs = await call('GET', `/api/pipelineruns/${receipt.runId}/logs?task=show`, w.owner);
    expect(logs.body).toContain('built https://github.com/Codertocat/Hello-World.git at 6113728f27ae');
  });

  it('rejects a bad or missing signature with 401 and starts no run', async () => {
    const hook = await create({ type: 'github', event: 'push' });
    const before = await runCount();
    const forged = await github(hook, 'push', branchPush, 'not-the-secret-at-all');
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe('x-hub-signature-256 does not match the payload');
    const tampered = await deliver(
      hook.id,
      { 'x-github-event': 'push', 'x-hub-signature-256': sign(hook.secret, branchPush) },
      branchPush.replace('master', 'main'),
    );
    expect(tampered.statusCode).toBe(401);
    const missing = await deliver(hook.id, { 'x-github-event': 'push' }, branchPush);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe('Missing x-hub-signature-256 header');
    expect(await runCount()).toBe(before);
    const { rows, total } = await deliveries(hook.id);
    expect(total).toBe(3);
    expect(rows.every((d) => d.outcome === 'rejected' && d.statusCode === 401 && d.runId === null)).toBe(
      true,
    );
    expect((await deliver('no-such-hook', { 'x-github-event': 'push' }, branchPush)).statusCode).toBe(404);
  });

  it('answers ping, and ignores other events, tags, deleted branches, other branches and PR actions', async () => {
    const hook = await create({ type: 'github', event: 'push', branch: 'release/*' });
    const before = await runCount();
    const pong = await github(hook, 'ping', ping);
    expect(pong.statusCode).toBe(200);
    expect(pong.json().message).toBe('Ping received; the webhook is set up');
    const cases: Array<[string, string, string]> = [
      ['pull_request', prOpened, 'Event "pull_request" is not "push"'],
      ['push', tagPush, 'refs/tags/simple-tag is not a branch'],
      ['push', deletedPush, 'Branch master was deleted'],
      ['push', branchPush, 'Branch "master" does not match "release/*"'],
    ];
    for (const [event, body, message] of cases) {
      const res = await github(hook, event, body);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ outcome: 'ignored', message, runId: null });
    }
    const releasePush = branchPush.replace('"refs/heads/master"', '"refs/heads/release/1.2"');
    expect((await github(hook, 'push', releasePush)).statusCode).toBe(201);
    const nested = branchPush.replace('"refs/heads/master"', '"refs/heads/release/1.2/hotfix"');
    expect((await github(hook, 'push', nested)).statusCode).toBe(202);
    expect(await runCount()).toBe(before + 1);
    const prHook = await create({ type: 'github', event: 'pull_request', branch: 'master' });
    const opened = await github(prHook, 'pull_request', prOpened);
    expect(opened.statusCode, opened.body).toBe(201);
    expect((await run(opened.json().runId)).params).toMatchObject({
      'git-branch': 'changes',
      'git-revision': 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
    });
    const closed = await github(prHook, 'pull_request', prClosed);
    expect(closed.json()).toMatchObject({
      outcome: 'ignored',
      message: 'Pull request action "closed" does not start a run',
    });
  });

  it('accepts GitHub form-encoded deliveries, signed over the raw body', async () => {
    const hook = await create({ type: 'github', event: 'push' });
    const body = new URLSearchParams({ payload: branchPush }).toString();
    const res = await deliver(
      hook.id,
      { 'x-github-event': 'push', 'x-hub-signature-256': sign(hook.secret, body) },
      body,
      'application/x-www-form-urlencoded',
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  it('verifies GitLab tokens and reads the documentation push and merge request samples', async () => {
    const hook = await create({ type: 'gitlab', event: 'Push Hook' });
    const body = fixture('gitlab-push.json');
    const wrong = await deliver(hook.id, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' }, body);
    expect(wrong.statusCode).toBe(401);
    const ok = await deliver(hook.id, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': hook.secret }, body);
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await run(ok.json().runId)).params).toEqual({
      'git-url': 'http://example.com/mike/diaspora.git',
      'git-revision': 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      'git-branch': 'master',
    });
    const mrHook = await create({ type: 'gitlab', event: 'Merge Request Hook', branch: 'master' });
    const mr = await deliver(
      mrHook.id,
      { 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': mrHook.secret },
      fixture('gitlab-merge-request.json'),
    );
    expect(mr.statusCode, mr.body).toBe(201);
    expect((await run(mr.json().runId)).params).toEqual({
      'git-url': 'http://example.com/awesome_space/awesome_project.git',
      'git-revision': 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      'git-branch': 'ms-viewport',
    });
    const [delivery] = (await deliveries(mrHook.id)).rows;
    expect(delivery!.params).toMatchObject({ 'git-author': 'root' });
  });

  it('verifies Bitbucket signatures and reads repo:push and pullrequest:created', async () => {
    const hook = await create({ type: 'bitbucket', event: 'repo:push', branch: 'main' });
    const body = fixture('bitbucket-repo-push.json');
    const bad = await deliver(
      hook.id,
      { 'x-event-key': 'repo:push', 'x-hub-signature': sign('x'.repeat(20), body) },
      body,
    );
    expect(bad.statusCode).toBe(401);
    const ok = await deliver(
      hook.id,
      { 'x-event-key': 'repo:push', 'x-hub-signature': sign(hook.secret, body), 'x-request-uuid': 'bb-1' },
      body,
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await run(ok.json().runId)).params).toEqual({
      'git-url': 'https://bitbucket.org/team_name/website.git',
      'git-revision': '709d658dc5b6d6afcd46049c2f332ee3f515a67d',
      'git-branch': 'main',
    });
    expect((await deliveries(hook.id)).rows[0]).toMatchObject({
      deliveryId: 'bb-1',
      params: { 'git-author': 'emma' },
    });
    const prHook = await create({ type: 'bitbucket', event: 'pullrequest:created', branch: 'main' });
    const prBody = fixture('bitbucket-pullrequest-created.json');
    const pr = await deliver(
      prHook.id,
      { 'x-event-key': 'pullrequest:created', 'x-hub-signature': sign(prHook.secret, prBody) },
      prBody,
    );
    expect(pr.statusCode, pr.body).toBe(201);
    expect((await run(pr.json().runId)).params).toMatchObject({ 'git-branch': 'feature/status-page' });
  });

  it('answers a replayed GitHub delivery id with 200 "duplicate", logs it and starts no run', async () => {
    const hook = await create({ type: 'github', event: 'push', branch: 'master' });
    const headers = (id: string, secret = hook.secret) => ({
      'x-github-event': 'push',
      'x-github-delivery': id,
      'x-hub-signature-256': sign(secret, branchPush),
    });
    const before = await runCount();
    const first = await deliver(hook.id, headers('gh-replay-1'), branchPush);
    expect(first.statusCode, first.body).toBe(201);
    const replay = await deliver(hook.id, headers('gh-replay-1'), branchPush);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toEqual({
      outcome: 'duplicate',
      message: 'duplicate',
      deliveryId: expect.any(String),
      runId: null,
    });
    expect(await runCount()).toBe(before + 1);
    const { rows } = await deliveries(hook.id);
    expect(rows.map((d) => [d.deliveryId, d.outcome, d.statusCode])).toEqual([
      ['gh-replay-1', 'duplicate', 200],
      ['gh-replay-1', 'triggered', 201],
    ]);
    const { rows: duplicates } = await deliveries(hook.id, '?outcome=duplicate');
    expect(duplicates).toHaveLength(1);
    // another id is another delivery
    expect((await deliver(hook.id, headers('gh-replay-2'), branchPush)).statusCode).toBe(201);
    // the id is per webhook: the same id on another webhook starts its run
    const other = await create({ type: 'github', event: 'push', branch: 'master' });
    const onOther = await deliver(
      other.id,
      { ...headers('gh-replay-1', other.secret), 'x-hub-signature-256': sign(other.secret, branchPush) },
      branchPush,
    );
    expect(onOther.statusCode, onOther.body).toBe(201);
  });

  it('counts only correctly signed deliveries: a forged id does not block the real one', async () => {
    const hook = await create({ type: 'github', event: 'push', branch: 'master' });
    const forged = await deliver(
      hook.id,
      {
        'x-github-event': 'push',
        'x-github-delivery': 'gh-forged',
        'x-hub-signature-256': sign('x'.repeat(32), branchPush),
      },
      branchPush,
    );
    expect(forged.statusCode).toBe(401);
    const unsigned = await deliver(
      hook.id,
      { 'x-github-event': 'push', 'x-github-delivery': 'gh-forged' },
      branchPush,
    );
    expect(unsigned.statusCode).toBe(401);
    const real = await deliver(
      hook.id,
      {
        'x-github-event': 'push',
        'x-github-delivery': 'gh-forged',
        'x-hub-signature-256': sign(hook.secret, branchPush),
      },
      branchPush,
    );
    expect(real.statusCode, real.body).toBe(201);
    // a delivery that started no run (another branch) does not mark its id as seen
    const ignored = await deliver(
      hook.id,
      {
        'x-github-event': 'push',
        'x-github-delivery': 'gh-tag',
        'x-hub-signature-256': sign(hook.secret, tagPush),
      },
      tagPush,
    );
    expect(ignored.statusCode).toBe(202);
    expect(
      (
        await deliver(
          hook.id,
          {
            'x-github-event': 'push',
            'x-github-delivery': 'gh-tag',
            'x-hub-signature-256': sign(hook.secret, tagPush),
          },
          tagPush,
        )
      ).json().outcome,
    ).toBe('ignored');
  });

  it('starts one run for two concurrent replays of the same delivery', async () => {
    const hook = await create({ type: 'github', event: 'push', branch: 'master' });
    const headers = {
      'x-github-event': 'push',
      'x-github-delivery': 'gh-race',
      'x-hub-signature-256': sign(hook.secret, branchPush),
    };
    const before = await runCount();
    const answers = await Promise.all([
      deliver(hook.id, headers, branchPush),
      deliver(hook.id, headers, branchPush),
      deliver(hook.id, headers, branchPush),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    expect(answers.filter((a) => a.json().outcome === 'duplicate')).toHaveLength(2);
    expect(await runCount()).toBe(before + 1);
  });

  it('de-duplicates GitLab (Idempotency-Key, else X-Gitlab-Event-UUID) and Bitbucket (X-Request-UUID); no id: as before', async () => {
    const gitlab = await create({ type: 'gitlab', event: 'Push Hook' });
    const body = fixture('gitlab-push.json');
    const gl = (extra: Record<string, string>) =>
      deliver(gitlab.id, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': gitlab.secret, ...extra }, body);
    expect((await gl({ 'x-gitlab-event-uuid': 'ev-1', 'idempotency-key': 'idem-1' })).statusCode).toBe(201);
    // a retry keeps the Idempotency-Key even when the event UUID differs
    expect((await gl({ 'x-gitlab-event-uuid': 'ev-2', 'idempotency-key': 'idem-1' })).json().outcome).toBe(
      'duplicate',
    );
    expect((await gl({ 'x-gitlab-event-uuid': 'ev-3' })).statusCode).toBe(201);
    expect((await gl({ 'x-gitlab-event-uuid': 'ev-3' })).json().outcome).toBe('duplicate');
    // without any id, every delivery counts, as before
    expect((await gl({})).statusCode).toBe(201);
    expect((await gl({})).statusCode).toBe(201);

    const bitbucket = await create({ type: 'bitbucket', event: 'repo:push', branch: 'main' });
    const bbBody = fixture('bitbucket-repo-push.json');
    const bb = () =>
      deliver(
        bitbucket.id,
        {
          'x-event-key': 'repo:push',
          'x-hub-signature': sign(bitbucket.secret, bbBody),
          'x-request-uuid': 'bb-dup',
        },
        bbBody,
      );
    expect((await bb()).statusCode).toBe(201);
    const again = await bb();
    expect(again.statusCode).toBe(200);
    expect(again.json().outcome).toBe('duplicate');
  });
});

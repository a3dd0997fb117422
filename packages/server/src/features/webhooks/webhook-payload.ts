import type { WebhookType } from '@slipway/contracts';

/** What a delivery says about the code: it becomes the run's git-* params. */
export interface PushInfo {
  /** the branch whose code is built (a pull request's source branch) */
  branch: string;
  /** the branch the branch filter looks at: the pushed branch, or a pull request's target */
  filterBranch: string;
  revision: string;
  url: string;
  author: string;
}

export type PayloadReading = { kind: 'build'; info: PushInfo } | { kind: 'ignore'; reason: string };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const ZERO = /^0+$/;

const GITHUB_PR_ACTIONS = ['opened', 'synchronize', 'reopened'];
const GITLAB_MR_ACTIONS = ['open', 'update', 'reopen'];

function branchOf(ref: string): string | null {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

function pushOf(ref: string, after: string, url: string, author: string): PayloadReading {
  const branch = branchOf(ref);
  if (!branch) return { kind: 'ignore', reason: `${ref || 'The ref'} is not a branch` };
  if (!after || ZERO.test(after)) return { kind: 'ignore', reason: `Branch ${branch} was deleted` };
  return { kind: 'build', info: { branch, filterBranch: branch, revision: after, url, author } };
}

function github(event: string, p: Json): PayloadReading {
  const repo = obj(p.repository);
  if (event === 'push') {
    const headAuthor = obj(obj(p.head_commit).author);
    const author =
      str(headAuthor.username) || str(headAuthor.name) || str(obj(p.pusher).name) || str(obj(p.sender).login);
    return pushOf(str(p.ref), str(p.after), str(repo.clone_url), author);
  }
  const action = str(p.action);
  if (!GITHUB_PR_ACTIONS.includes(action))
    return { kind: 'ignore', reason: `Pull request action "${action}" does not start a run` };
  const pr = obj(p.pull_request);
  const head = obj(pr.head);
  return {
    kind: 'build',
    info: {
      branch: str(head.ref),
      filterBranch: str(obj(pr.base).ref),
      revision: str(head.sha),
      url: str(obj(head.repo).clone_url) || str(repo.clone_url),
      author: str(obj(pr.user).login) || str(obj(p.sender).login),
    },
  };
}

function gitlab(event: string, p: Json): PayloadReading {
  const project = obj(p.project);
  if (event === 'Push Hook') {
    const after = str(p.checkout_sha) || str(p.after);
    const url = str(project.git_http_url) || str(obj(p.repository).git_http_url);
    return pushOf(str(p.ref), after, url, str(p.user_username) || str(p.user_name));
  }
  const mr = obj(p.object_attributes);
  const action = str(mr.action);
  if (!GITLAB_MR_ACTIONS.includes(action))
    return { kind: 'ignore', reason: `Merge request action "${action}" does not start a run` };
  return {
    kind: 'build',
    info: {
      branch: str(mr.source_branch),
      filterBranch: str(mr.target_branch),
      revision: str(obj(mr.last_commit).id),
      url: str(obj(mr.source).git_http_url) || str(project.git_http_url),
      author: str(obj(p.user).username) || str(obj(p.user).name),
    },
  };
}

/** Bitbucket names the repository's web page; its HTTPS clone URL is that page with `.git`. */
function bitbucketCloneUrl(repository: unknown): string {
  const html = str(obj(obj(obj(repository).links).html).href);
  return html ? `${html.replace(/\/$/, '')}.git` : '';
}

function bitbucketActor(actor: unknown): string {
  const a = obj(actor);
  return str(a.nickname) || str(a.display_name) || str(a.username);
}

function bitbucket(event: string, p: Json): PayloadReading {
  if (event === 'repo:push') {
    const changes = Array.isArray(obj(p.push).changes) ? (obj(p.push).changes as unknown[]) : [];
    const change = obj(changes[0]);
    const next = obj(change.new);
    if (!change.new) {
      const old = obj(change.old);
      return { kind: 'ignore', reason: `Branch ${str(old.name) || '(unknown)'} was deleted` };
    }
    if (str(next.type) !== 'branch')
      return { kind: 'ignore', reason: `${str(next.name) || 'The ref'} is not a branch` };
    const branch = str(next.name);
    return {
      kind: 'build',
      info: {
        branch,
        filterBranch: branch,
        revision: str(obj(next.target).hash),
        url: bitbucketCloneUrl(p.repository),
        author: bitbucketActor(p.actor),
      },
    };
  }
  const pr = obj(p.pullrequest);
  const source = obj(pr.source);
  return {
    kind: 'build',
    info: {
      branch: str(obj(source.branch).name),
      filterBranch: str(obj(obj(pr.destination).branch).name),
      revision: str(obj(source.commit).hash),
      url: bitbucketCloneUrl(source.repository) || bitbucketCloneUrl(p.repository),
      author: bitbucketActor(pr.author) || bitbucketActor(p.actor),
    },
  };
}

/** Reads the branch, commit, clone URL and author from a provider's payload for its event. */
export function readPayload(type: WebhookType, event: string, payload: unknown): PayloadReading {
  const p = obj(payload);
  const reading =
    type === 'github' ? github(event, p) : type === 'gitlab' ? gitlab(event, p) : bitbucket(event, p);
  if (reading.kind === 'build' && (!reading.info.branch || !reading.info.revision))
    return { kind: 'ignore', reason: 'The payload names no branch or commit' };
  return reading;
}

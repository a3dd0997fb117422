import { beforeEach } from 'vitest';
import { withSignedInPeer } from '../../test/settings-peer';
import { samplePipeline } from '../../test/pipelines-peer';

/**
 * What the pipelines feature's page tests share: a signed-in API peer whose pipelines state is
 * reset before each test (one sample pipeline, no templates, runs or logs), and what jsdom lacks
 * for the canvas and the editor. Call it once at the top of a test file.
 */
export function pipelinesPeer() {
  const ctx = withSignedInPeer();
  // jsdom lays nothing out: it has no ResizeObserver (the canvas asks for one) and no client
  // rects for text ranges (the editor measures with them)
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
  beforeEach(() => {
    const state = ctx.peer.pipelines;
    state.pipelines = [samplePipeline()];
    state.templates = [];
    state.runs = [];
    state.logs = new Map();
    state.refuseDefinition = null;
    state.refuseDocument = null;
    state.exports = new Map();
  });
  return ctx;
}

/** A pipeline of build → test with a finally task reading a result: the DAG tests draw it. */
export const DAG_DEFINITION = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: hello }
spec:
  tasks:
    - name: build
      taskSpec: { steps: [{ name: say, image: alpine, script: echo }] }
    - name: test
      runAfter: [build]
      taskSpec: { steps: [{ name: check, image: alpine, script: echo }] }
  finally:
    - name: report
      params:
        - name: from
          value: $(tasks.test.results.summary)
      taskSpec: { steps: [{ name: tell, image: alpine, script: echo }] }
`;

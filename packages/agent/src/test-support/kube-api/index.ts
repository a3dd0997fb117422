export { KubeApiServer } from './server.js';
export { BUILT_IN_KINDS } from './kinds.js';
export { parseLabelSelector } from './selectors.js';
export { defaultExec } from './exec.js';
export type {
  AccessAttributes,
  ExecSession,
  KindInfo,
  KubeApiServerOptions,
  KubeObject,
  RecordedRequest,
} from './types.js';

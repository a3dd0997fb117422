import { randomBytes } from 'node:crypto';
import type { Kinds } from './kinds.js';
import type { ObjectStore } from './store.js';
import { isObject, type KubeObject } from './types.js';

/**
 * Events as the controllers, the scheduler and the kubelet record them (core/v1 Event, the shape
 * `kubectl describe` and `kubectl events` read), for the test controllers.
 */
export function recordEvent(
  store: ObjectStore,
  kinds: Kinds,
  about: KubeObject,
  reason: string,
  message: string,
  component: string,
  type: 'Normal' | 'Warning' = 'Normal',
): void {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const namespace = about.metadata.namespace ?? 'default';
  store.write(kinds.of('v1', 'Event'), {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${about.metadata.name}.${randomBytes(8).toString('hex')}`, namespace },
    involvedObject: {
      apiVersion: about.apiVersion,
      kind: about.kind,
      name: about.metadata.name,
      namespace,
      uid: about.metadata.uid,
      resourceVersion: about.metadata.resourceVersion,
    },
    reason,
    message,
    type,
    source: component === 'kubelet' ? { component, host: 'node-1' } : { component },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    reportingComponent: component,
    reportingInstance: component === 'kubelet' ? 'node-1' : '',
  });
}

// Small helpers the test controllers share.
export const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export const safe = (bytes: Buffer, n: number) =>
  [...bytes.subarray(0, n)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
export const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
export const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

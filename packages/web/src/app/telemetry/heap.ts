/**
 * Heap user-behaviour analytics (spec §1, §7): loaded with the configured key only when
 * heapAnalytics.enabled. Calls made before Heap's script arrives are queued, as Heap's own
 * snippet does, and replayed by Heap once it is ready.
 */
type HeapMethod = (...args: unknown[]) => void;

export interface HeapApi {
  envId?: string;
  identify: HeapMethod;
  track: HeapMethod;
  addUserProperties: HeapMethod;
  resetIdentity: HeapMethod;
  [name: string]: unknown;
}

declare global {
  interface Window {
    heap?: HeapApi;
    heapReadyCb?: Array<{ name: string; fn: () => void }>;
  }
}

export const HEAP_SCRIPT_ORIGIN = 'https://cdn.us.heap-api.com';
const QUEUED_METHODS = ['identify', 'track', 'addUserProperties', 'resetIdentity', 'addEventProperties'];

export function heapScriptUrl(key: string): string {
  return `${HEAP_SCRIPT_ORIGIN}/config/${encodeURIComponent(key)}/heap_config.js`;
}

/** Installs the queueing stub and adds Heap's script. Idempotent. */
export function loadHeap(key: string, win: Window = window): HeapApi {
  if (win.heap?.envId) return win.heap;
  win.heapReadyCb = win.heapReadyCb ?? [];
  const stub = { envId: key } as HeapApi;
  for (const name of QUEUED_METHODS) {
    stub[name] = (...args: unknown[]) => {
      win.heapReadyCb!.push({
        name,
        fn: () => (win.heap?.[name] as HeapMethod | undefined)?.apply(win.heap, args),
      });
    };
  }
  win.heap = stub;
  const script = win.document.createElement('script');
  script.async = true;
  script.src = heapScriptUrl(key);
  script.dataset.slipway = 'heap';
  win.document.head.appendChild(script);
  return stub;
}

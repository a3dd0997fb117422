import type { ObjectStore } from './store.js';
import { isObject, type KubeObject } from './types.js';

/**
 * What the Service registry allocates: a cluster IP from 10.96.0.0/12 (kept across updates that
 * leave it out, as the apiserver does) and, for NodePort and LoadBalancer services, node ports
 * from 30000-32767.
 */
export function allocateService(store: ObjectStore, service: KubeObject, existing?: KubeObject): void {
  const spec = isObject(service.spec) ? service.spec : (service.spec = {});
  const old = existing && isObject(existing.spec) ? existing.spec : {};
  const type = (spec.type as string | undefined) ?? 'ClusterIP';
  if (type === 'ExternalName') return;
  if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
  if (!spec.clusterIP) {
    const used = new Set(
      [...store.objects.values()]
        .filter((o) => o.kind === 'Service' && o.apiVersion === 'v1')
        .map((o) => (isObject(o.spec) ? o.spec.clusterIP : undefined)),
    );
    for (let i = 10; ; i++) {
      const ip = `10.96.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      if (!used.has(ip)) {
        spec.clusterIP = ip;
        break;
      }
    }
  }
  spec.clusterIPs = [spec.clusterIP];
  if (type !== 'NodePort' && type !== 'LoadBalancer') return;
  const ports = Array.isArray(spec.ports) ? (spec.ports as Record<string, unknown>[]) : [];
  const oldPorts = Array.isArray(old.ports) ? (old.ports as Record<string, unknown>[]) : [];
  const taken = new Set(
    [...store.objects.values()].flatMap((o) =>
      o.kind === 'Service' && isObject(o.spec) && Array.isArray(o.spec.ports)
        ? (o.spec.ports as Record<string, unknown>[]).map((p) => p.nodePort)
        : [],
    ),
  );
  let next = 30000;
  for (const p of ports) {
    if (p.nodePort) continue;
    const before = oldPorts.find((o) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
    if (before?.nodePort) {
      p.nodePort = before.nodePort;
      continue;
    }
    while (taken.has(next)) next++;
    p.nodePort = next;
    taken.add(next);
  }
}

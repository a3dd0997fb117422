import { randomUUID } from 'node:crypto';
import type { InstanceInfo, InstanceStore } from './instance-store.js';

export class FakeInstanceStore implements InstanceStore {
  private info: InstanceInfo | null = null;

  async recordStart(): Promise<InstanceInfo> {
    this.info = this.info
      ? { ...this.info, starts: this.info.starts + 1 }
      : { id: randomUUID(), firstStartedAt: new Date().toISOString(), starts: 1 };
    return this.info;
  }

  async get(): Promise<InstanceInfo | null> {
    return this.info;
  }
}

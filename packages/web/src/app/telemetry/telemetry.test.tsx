import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS } from 'unleash-proxy-client';
import type { UnleashClient } from 'unleash-proxy-client';
import { signedIn, loggedOut } from '../../features/auth/auth-slice';
import { useFeatureFlag } from '../feature-flags';
import { createStore } from '../store';
import { heapScriptUrl, loadHeap } from './heap';
import UnleashFlags, { flagValues, unleashConfig } from './UnleashFlags';

afterEach(() => {
  delete window.heap;
  delete window.heapReadyCb;
  document.head.querySelectorAll('script[data-slipway="heap"]').forEach((s) => s.remove());
});

describe('Heap', () => {
  it('adds its script with the key and queues calls until it is ready', () => {
    loadHeap('1234567');
    const script = document.head.querySelector<HTMLScriptElement>('script[data-slipway="heap"]');
    expect(script?.src).toBe(heapScriptUrl('1234567'));
    expect(script?.src).toContain('/config/1234567/heap_config.js');
    window.heap!.track('x');
    expect(window.heapReadyCb).toHaveLength(1);
    loadHeap('1234567');
    expect(document.head.querySelectorAll('script[data-slipway="heap"]')).toHaveLength(1);
  });

  it('is told about sign-in (identify, user properties, track) and logout', () => {
    const calls: Array<[string, unknown[]]> = [];
    const record =
      (name: string) =>
      (...args: unknown[]) =>
        calls.push([name, args]);
    window.heap = {
      envId: 'k',
      identify: record('identify'),
      track: record('track'),
      addUserProperties: record('addUserProperties'),
      resetIdentity: record('resetIdentity'),
    };
    const { store } = createStore();
    store.dispatch(
      signedIn({ token: 't', projectId: 'p1', user: { id: 'u1', email: 'ada@example.com', name: 'Ada' } }),
    );
    store.dispatch(loggedOut());
    expect(calls).toEqual([
      ['identify', ['ada@example.com']],
      ['addUserProperties', [{ userId: 'u1', email: 'ada@example.com', name: 'Ada', projectId: 'p1' }]],
      ['track', ['Signed in', undefined]],
      ['track', ['Signed out', undefined]],
      ['resetIdentity', []],
    ]);
  });

  it('does nothing when Heap is off', () => {
    const { store } = createStore();
    expect(() => store.dispatch(signedIn({ token: 't', user: { id: 'u1' } }))).not.toThrow();
  });
});

/** A stand-in Unleash client: the events and toggles the real one exposes, no network. */
class FakeUnleashClient {
  toggles: Array<{ name: string; enabled: boolean }> = [];
  private handlers = new Map<string, Set<() => void>>();
  on(event: string, fn: () => void) {
    (this.handlers.get(event) ?? this.handlers.set(event, new Set()).get(event)!).add(fn);
    return this;
  }
  off(event: string, fn: () => void) {
    this.handlers.get(event)?.delete(fn);
    return this;
  }
  emit(event: string) {
    this.handlers.get(event)?.forEach((fn) => fn());
  }
  getAllToggles() {
    return this.toggles.map((t) => ({
      ...t,
      impressionData: false,
      variant: { name: 'disabled', enabled: false },
    }));
  }
  isEnabled(name: string) {
    return this.toggles.some((t) => t.name === name && t.enabled);
  }
  getVariant() {
    return { name: 'disabled', enabled: false };
  }
  start() {
    return Promise.resolve();
  }
  stop() {}
  isReady() {
    return true;
  }
  getError() {
    return null;
  }
  updateContext() {
    return Promise.resolve();
  }
  getContext() {
    return {};
  }
  setContextField() {}
}

function Flag({ name }: { name: string }) {
  return <p data-testid={`flag-${name}`}>{String(useFeatureFlag(name))}</p>;
}

describe('Unleash', () => {
  it('passes further settings through to the client', () => {
    const c = unleashConfig({
      enabled: true,
      url: 'https://flags.example/api/frontend',
      clientKey: 'k',
      appName: 'slipway',
      refreshInterval: 30,
      environment: 'staging',
    });
    expect(c).toMatchObject({
      url: 'https://flags.example/api/frontend',
      clientKey: 'k',
      refreshInterval: 30,
      environment: 'staging',
    });
    expect(c).not.toHaveProperty('enabled');
  });

  it('refreshes flag values on the ready and update events', () => {
    const client = new FakeUnleashClient();
    render(
      <UnleashFlags
        settings={{
          enabled: true,
          url: 'http://127.0.0.1:1',
          clientKey: 'k',
          appName: 'slipway',
          refreshInterval: 15,
        }}
        client={client as unknown as UnleashClient}
      >
        <Flag name="studio" />
      </UnleashFlags>,
    );
    expect(screen.getByTestId('flag-studio').textContent).toBe('false');
    client.toggles = [{ name: 'studio', enabled: true }];
    act(() => client.emit(EVENTS.READY));
    expect(screen.getByTestId('flag-studio').textContent).toBe('true');
    client.toggles = [];
    act(() => client.emit(EVENTS.UPDATE));
    expect(screen.getByTestId('flag-studio').textContent).toBe('false');
    expect(flagValues(client as unknown as UnleashClient)).toEqual({});
  });
});

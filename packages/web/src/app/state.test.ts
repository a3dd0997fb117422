import { describe, expect, it } from 'vitest';
import { ONBOARDING_PERSIST_KEY } from '@slipway/contracts';
import { fingerprintSet, loggedOut, projectSelected, signedIn } from '../features/auth/auth-slice';
import { initialClusterState, resourceInstalledSet } from '../features/clusters/cluster-slice';
import { initialOnboardingState, onboardingUpdated } from '../features/onboarding/onboarding-slice';
import { onboardingV2Updated } from '../features/onboarding/onboarding-v2-slice';
import { createStore } from './store';

const user = { id: 'u1', email: 'ada@example.com' };

describe('the store', () => {
  it('starts every slice at the spec defaults', () => {
    const { store } = createStore();
    const s = store.getState();
    expect(s.auth).toEqual({ token: null, projectId: null, fingerprint: null });
    expect(s.onboarding.type).toBe('quick_setup');
    expect(s.onboarding.pageState).toBe(0);
    expect(s.onboarding.clusterType).toEqual({ id: null, name: null });
    expect(s.onboarding.registry).toEqual({ custom: null, setup: { name: null } });
    expect(s.onboardingV2.isOnboardingInProgress).toBe(true);
    expect(s.onboardingV2.clusterNamespace).toBe('default');
    expect(s.onboardingV2).toHaveProperty('shoulCallOnboarding', false);
    expect(Object.keys(s.cluster.setup.installedResources)).toEqual(['6', '7']);
    expect(Object.keys(s.cluster.custom.installedResources)).toEqual(['1', '3', '5', '7', '9', '12']);
    expect(Object.keys(s.cluster.defaultCluster.installedResources)).toEqual(['1', '3', '5', '7', '9', '12']);
    expect(s.cluster.defaultCluster.limitedAgent.allowedNamespaces).toEqual(['ozone']);
    expect(s.cluster.defaultCluster.extlogging.dynatraceLogging).toEqual({
      enabled: false,
      provider_id: null,
      cluster_name: null,
    });
  });

  it('keeps the token, project and fingerprint, and resets onboarding on logout', () => {
    const { store } = createStore();
    store.dispatch(signedIn({ token: 'Bearer t', projectId: 'p1', user }));
    store.dispatch(fingerprintSet('fp-1'));
    store.dispatch(projectSelected('p2'));
    store.dispatch(onboardingUpdated({ pageState: 3, setupType: 'custom' }));
    store.dispatch(onboardingV2Updated({ currentStep: 9, isTourOpen: true }));
    expect(store.getState().auth).toEqual({ token: 'Bearer t', projectId: 'p2', fingerprint: 'fp-1' });
    store.dispatch(loggedOut());
    const s = store.getState();
    expect(s.auth.token).toBeNull();
    expect(s.auth.projectId).toBeNull();
    expect(s.onboarding.pageState).toBe(0);
    expect(s.onboarding.setupType).toBeNull();
    expect(s.onboardingV2.currentStep).toBe(0);
    expect(s.onboardingV2.isTourOpen).toBe(false);
  });

  it('marks a cluster resource installed or not', () => {
    const { store } = createStore();
    store.dispatch(resourceInstalledSet({ section: 'setup', id: 9, installed: true }));
    store.dispatch(resourceInstalledSet({ section: 'setup', id: 6, installed: false }));
    expect(store.getState().cluster.setup.installedResources).toEqual({ 6: false, 7: true, 9: true });
    expect(initialClusterState.setup.installedResources).toEqual({ 6: true, 7: true });
  });

  it('persists the onboarding slice in sessionStorage under onboarding-root', async () => {
    const { store, persistor } = createStore();
    await waitForBootstrap(persistor);
    store.dispatch(onboardingUpdated({ pageState: 2, serviceUrl: 'https://svc.example' }));
    await persistor.flush();
    const raw = sessionStorage.getItem(ONBOARDING_PERSIST_KEY);
    expect(raw).not.toBeNull();
    expect(JSON.parse(JSON.parse(raw!).pageState)).toBe(2);

    // A new page in the same browser session restores it.
    const second = createStore();
    await waitForBootstrap(second.persistor);
    expect(second.store.getState().onboarding.pageState).toBe(2);
    expect(second.store.getState().onboarding.serviceUrl).toBe('https://svc.example');
    expect(second.store.getState().onboarding.type).toBe(initialOnboardingState.type);
  });
});

function waitForBootstrap(persistor: ReturnType<typeof createStore>['persistor']) {
  return new Promise<void>((resolve) => {
    if (persistor.getState().bootstrapped) return resolve();
    const stop = persistor.subscribe(() => {
      if (persistor.getState().bootstrapped) {
        stop();
        resolve();
      }
    });
  });
}

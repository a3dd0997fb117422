import { describe, expect, it } from 'vitest';
import { FakeOnboardingStore } from './fake-onboarding-store.js';
import { OnboardingService, tourMilestone } from './onboarding-service.js';

function setup() {
  const store = new FakeOnboardingStore();
  return { store, service: new OnboardingService(store) };
}

describe('OnboardingService over the fake store', () => {
  it('starts fresh, per person and per organisation', async () => {
    const { service } = setup();
    await service.setStatus('u1', 'org-a', { currentstep: 5 });
    expect(await service.status('u1', 'org-a')).toEqual({ is_onboarding_completed: false, currentstep: 5 });
    expect(await service.status('u1', 'org-b')).toEqual({ is_onboarding_completed: false, currentstep: 0 });
    expect(await service.status('u2', 'org-a')).toEqual({ is_onboarding_completed: false, currentstep: 0 });
  });

  it('moves forward only unless restarted, and writes only a change', async () => {
    const { service, store } = setup();
    await service.setStatus('u1', 'org-a', { currentstep: 9 });
    const back = await service.setStatus('u1', 'org-a', { currentstep: 4 });
    expect(back).toEqual({
      before: { is_onboarding_completed: false, currentstep: 9 },
      after: { is_onboarding_completed: false, currentstep: 9 },
    });
    expect(store.writes).toBe(1);
    const restarted = await service.setStatus('u1', 'org-a', { currentstep: 1, restart: true });
    expect(restarted.after).toEqual({ is_onboarding_completed: false, currentstep: 1 });
    expect(store.writes).toBe(2);
  });

  it('skipping or reaching the last step completes the tour', async () => {
    const { service } = setup();
    expect(
      (await service.setStatus('u1', 'org-a', { is_onboarding_completed: true })).after
        .is_onboarding_completed,
    ).toBe(true);
    expect((await service.setStatus('u2', 'org-a', { currentstep: 27 })).after).toEqual({
      is_onboarding_completed: true,
      currentstep: 27,
    });
  });
});

describe('tourMilestone', () => {
  const at = (currentstep: number, is_onboarding_completed = false) => ({
    currentstep,
    is_onboarding_completed,
  });
  it('names the start, skip and finish, and nothing between', () => {
    expect(tourMilestone(at(0), at(4), { currentstep: 4 })).toBe('start');
    expect(tourMilestone(at(27, true), at(4), { currentstep: 4, restart: true })).toBe('start');
    expect(tourMilestone(at(9), at(4), { currentstep: 4, restart: true })).toBe('start');
    expect(tourMilestone(at(4), at(5), { currentstep: 5 })).toBeNull();
    expect(tourMilestone(at(9), at(9), { currentstep: 8 })).toBeNull();
    expect(tourMilestone(at(12), at(12, true), { is_onboarding_completed: true })).toBe('skip');
    expect(tourMilestone(at(26), at(27, true), { currentstep: 27 })).toBe('finish');
    expect(tourMilestone(at(27, true), at(27, true), { is_onboarding_completed: true })).toBeNull();
  });
});

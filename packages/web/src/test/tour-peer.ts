import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import { nextTourState, setTourStatusBodySchema, type OnboardingStateView } from '@slipway/contracts';
import type { Reply } from './peer-types';

export interface TourPeerDeps {
  invalid: (error: ZodError) => Reply;
}

/**
 * The guided tour's side of the test peer: admin/onboarding/{get,set}TourStatus for the one
 * signed-in person, with the server's rules (nextTourState). Tests set `tour.state` to start
 * mid-tour.
 */
export function createTourPeer(deps: TourPeerDeps) {
  const tour = {
    state: { is_onboarding_completed: false, currentstep: 0 } as OnboardingStateView,
  };
  function route(req: IncomingMessage, path: string, body: unknown): Reply | undefined {
    const key = `${req.method ?? 'GET'} ${path}`;
    if (key === 'GET /api/admin/onboarding/getTourStatus') return [200, { Onboardingstate: tour.state }];
    if (key === 'POST /api/admin/onboarding/setTourStatus') {
      const p = setTourStatusBodySchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      tour.state = nextTourState(tour.state, p.data.Onboardingstate);
      return [200, { Onboardingstate: tour.state }];
    }
    return undefined;
  }
  return { tour, route };
}
